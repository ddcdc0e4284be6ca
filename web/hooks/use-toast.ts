import * as React from "react";
import type { ToastActionElement, ToastProps } from "@/components/ui/toast";

// docs/product.md §9: at most one toast at a time; a dismissed toast stays mounted (closed) for 1,000,000 ms
// before it is dropped, so its exit animation and Radix's own bookkeeping are never cut short.
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

export type ToasterToast = ToastProps & {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: ToastActionElement;
};

export type ToastInput = Omit<ToasterToast, "id">;

type State = { toasts: ToasterToast[] };

let state: State = { toasts: [] };
const listeners = new Set<(state: State) => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function setState(next: State) {
  state = next;
  for (const listener of listeners) listener(state);
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    setState({ toasts: state.toasts.filter((t) => t.id !== id) });
  }, TOAST_REMOVE_DELAY);
  removalTimers.set(id, timer);
}

function dismiss(id?: string) {
  for (const t of state.toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  setState({
    toasts: state.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)),
  });
}

function update(id: string, props: Partial<ToasterToast>) {
  setState({ toasts: state.toasts.map((t) => (t.id === id ? { ...t, ...props } : t)) });
}

/** Shows a toast; the newest replaces any other (TOAST_LIMIT). Usable outside React. */
function toast(props: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToasterToast = {
    ...props,
    id,
    open: true,
    onOpenChange: (open) => {
      if (!open) dismiss(id);
    },
  };
  setState({ toasts: [item, ...state.toasts].slice(0, TOAST_LIMIT) });
  return { id, dismiss: () => dismiss(id), update: (next: Partial<ToasterToast>) => update(id, next) };
}

function subscribe(listener: (state: State) => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function useToast() {
  const current = React.useSyncExternalStore(subscribe, () => state, () => state);
  return { ...current, toast, dismiss };
}

export { toast, useToast };

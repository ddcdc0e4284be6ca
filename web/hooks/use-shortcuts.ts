import { useEffect, useRef } from "react";

/** A key as KeyboardEvent.key gives it ("j", "/", "?") and what it does. */
export type Shortcuts = Readonly<Record<string, () => void>>;

/** Where a typed key is text (or a choice), not a shortcut. */
const TYPING_TARGET = 'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="textbox"], [role="combobox"]';
/**
 * While one of these is open, its keys are its own: a modal dialog, a menu, a select's list. One
 * fading out (Radix marks it closed at once) no longer counts: a key right after Escape works.
 */
const OPEN_LAYER = ['dialog', 'alertdialog', 'menu', 'listbox'].map((role) => `[role="${role}"]:not([data-state="closed"])`).join(", ");

/** Whether a key press should be left alone: typed into a field, with a modifier, or while a dialog or menu is open. */
export function isShortcutFree(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  // Ctrl, Cmd and Alt belong to the browser and the system (Ctrl+J opens downloads); Shift only makes "?".
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target;
  if (target instanceof Element && target.closest(TYPING_TARGET)) return false;
  if (document.querySelector(OPEN_LAYER)) return false;
  return true;
}

/**
 * Single-key shortcuts on a screen (issue 22 item 11), active while it is mounted. A key typed in a
 * field, with Ctrl, Cmd or Alt, or while a dialog or menu is open is never taken: those keys keep
 * their usual meaning. The handlers may change every render; the listener is set up once.
 */
export function useShortcuts(shortcuts: Shortcuts): void {
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const run = Object.hasOwn(current.current, event.key) ? current.current[event.key] : undefined;
      if (!run || !isShortcutFree(event)) return;
      // "/" would otherwise start the browser's quick find (Firefox); the others type nothing here.
      event.preventDefault();
      run();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}

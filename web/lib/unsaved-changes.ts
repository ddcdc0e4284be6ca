import { useEffect } from "react";
import { navigate as browserNavigate, useBrowserLocation } from "wouter/use-browser-location";

// Unsaved work is not lost by leaving the page (issue 22, item 3). A form with changes not yet saved
// registers itself (useUnsavedChanges); while any is registered:
// - closing the tab, reloading or typing another address asks first (the browser's own beforeunload prompt);
// - moving to another screen inside the app (a link, the Back button) asks "Leave without saving?";
// - closing a dialog that holds the form (Cancel, Escape, its X, a click outside) asks "Discard
//   changes?" (useUnsavedDialog).

export const LEAVE_QUESTION = "You have unsaved changes. Leave this page without saving them?";
export const DISCARD_QUESTION = "Discard your unsaved changes?";

const dirtyForms = new Set<symbol>();

export function hasUnsavedChanges(): boolean {
  return dirtyForms.size > 0;
}

/** True when nothing would be lost, or the owner chose to leave anyway. */
export function confirmLeaving(): boolean {
  return !hasUnsavedChanges() || window.confirm(LEAVE_QUESTION);
}

const warnBeforeUnload = (event: BeforeUnloadEvent) => {
  event.preventDefault();
  // Older Chromium shows the prompt only with returnValue set.
  event.returnValue = "";
};

/** Marks this form as holding unsaved changes while `dirty` is true (and it is mounted). */
export function useUnsavedChanges(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const form = Symbol("unsaved form");
    dirtyForms.add(form);
    // Listened to only while there is something to lose: a beforeunload listener keeps the page out
    // of the browser's back-forward cache.
    if (dirtyForms.size === 1) window.addEventListener("beforeunload", warnBeforeUnload);
    return () => {
      dirtyForms.delete(form);
      if (dirtyForms.size === 0) window.removeEventListener("beforeunload", warnBeforeUnload);
    };
  }, [dirty]);
}

/**
 * For a dialog holding a form: registers its unsaved changes while it is open (useUnsavedChanges),
 * and answers the onOpenChange to give the dialog and its Cancel button, which asks before closing
 * over unsaved changes; staying keeps the dialog and what was typed. A save that then closes the
 * dialog calls the plain onOpenChange: nothing is lost.
 */
export function useUnsavedDialog(open: boolean, dirty: boolean, onOpenChange: (open: boolean) => void): (open: boolean) => void {
  useUnsavedChanges(open && dirty);
  return (next) => {
    if (!next && dirty && !window.confirm(DISCARD_QUESTION)) return;
    onOpenChange(next);
  };
}

const currentUrl = () => `${location.pathname}${location.search}${location.hash}`;

/** Where the app was before the last Back or Forward: put back when the owner chooses to stay. */
let shownUrl = typeof location === "undefined" ? "/" : currentUrl();

if (typeof window !== "undefined") {
  // Registered when this module loads, before wouter listens (it subscribes when the app first
  // renders): a refused Back stops here, and the router never sees it.
  window.addEventListener("popstate", (event) => {
    if (confirmLeaving()) {
      shownUrl = currentUrl();
      return;
    }
    event.stopImmediatePropagation();
    // Back already happened in the browser's history: step forward again to where the form is.
    history.pushState(history.state, "", shownUrl);
  });
  for (const type of ["pushState", "replaceState"]) window.addEventListener(type, () => (shownUrl = currentUrl()));
}

/** The app's links and redirects go through here: a move to another screen asks first when work would be lost. */
function guardedNavigate(to: string | URL, options?: { replace?: boolean; state?: unknown }) {
  const target = new URL(to, location.href);
  const samePage = target.pathname === location.pathname;
  if (!samePage && !confirmLeaving()) return;
  browserNavigate(to, options);
}

/** wouter's browser location, with navigation guarded (web/app.tsx's <Router hook>). */
export function useGuardedLocation(options?: { ssrPath?: string }): [string, typeof guardedNavigate] {
  const [path] = useBrowserLocation(options);
  return [path, guardedNavigate];
}

// The first screen after a reload waits for three things in turn: the session check, the signed-in
// app's chunk, then the screen's own chunk (measured on Orders: ~450 ms of the ~1.2 s to its first
// rows, issue 12). When this browser was signed in last time, the chunks start loading at once,
// beside the session check. A visitor who never signed in loads nothing more than the login screen.
// The screens are the routes' own (web/screens.ts): a chunk preloaded here is the one the route
// renders, at once, without suspending (lib/lazy-screen.ts).

import { screenAt, signedInApp } from "@/screens";

const SIGNED_IN_HINT = "shop-admin:signed-in";

function readHint(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === "1";
  } catch {
    return false; // storage blocked: just no head start
  }
}

/** Remembers whether this browser is signed in, for the next page load's head start. */
export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT, "1");
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // storage blocked: nothing to remember
  }
}

/** Starts loading the signed-in app and the screen at `path`, when this browser was signed in last time. */
export function preloadSignedInScreen(path: string): void {
  if (!readHint()) return;
  const ignore = () => {}; // a failed preload is retried by the lazy route itself
  signedInApp.preload().catch(ignore);
  screenAt(path)?.preload().catch(ignore);
}

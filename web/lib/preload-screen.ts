// The first screen after a reload waits for three things in turn: the session check, the signed-in
// app's chunk, then the screen's own chunk (measured on Orders: ~450 ms of the ~1.2 s to its first
// rows, issue 12). When this browser was signed in last time, the chunks start loading at once,
// beside the session check. A visitor who never signed in loads nothing more than the login screen.
// The imports are the same modules the app loads lazily (components/layout/authenticated-app.tsx),
// so nothing is loaded twice.

const SIGNED_IN_HINT = "shop-admin:signed-in";

/** The screen chunk for a path, as the signed-in app's routes map them. */
const SCREENS: [prefix: string, load: () => Promise<unknown>][] = [
  ["/bot-settings", () => import("@/pages/bot-settings")],
  ["/categories", () => import("@/pages/categories")],
  ["/products", () => import("@/pages/products")],
  ["/postage", () => import("@/pages/postage")],
  ["/coupons", () => import("@/pages/coupons")],
  ["/orders", () => import("@/pages/orders")],
  ["/messages", () => import("@/pages/messages")],
  ["/customers/", () => import("@/pages/customer")],
  ["/customers", () => import("@/pages/customers")],
  ["/activity", () => import("@/pages/activity")],
  ["/bot-preview", () => import("@/pages/bot-preview")],
  ["/staff", () => import("@/pages/staff")],
];

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
  import("@/components/layout/signed-in-app").catch(ignore);
  import("@/components/layout/authenticated-app").catch(ignore);
  const screen = path === "/" ? () => import("@/pages/dashboard") : SCREENS.find(([prefix]) => path.startsWith(prefix))?.[1];
  screen?.().catch(ignore);
}

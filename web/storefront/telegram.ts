import { backButton, hapticFeedback, init, isColorDark, mainButton, miniApp, on, postEvent, retrieveRawLaunchParams } from "@telegram-apps/sdk";
import { readableTheme } from "./contrast";

// Telegram's side of the Mini App (issue 27), through @telegram-apps/sdk: the launch parameters
// Telegram puts in the URL's hash (#tgWebAppData=…&tgWebAppVersion=…&tgWebAppPlatform=…&
// tgWebAppThemeParams=…), its theme colours, its Main Button and Back Button and haptic feedback.
//
// Two ways the page runs with launch parameters:
// - inside a Telegram client, which gives the page a way to talk to it (TelegramWebviewProxy in the
//   mobile and desktop apps, window.external.notify in old Windows Phone ones, postMessage to the
//   parent frame in Telegram Web): the SDK drives the client's Main Button, Back Button and haptics;
// - in a plain browser tab (a shared link, the browser tests): the SDK counts the parameters in the
//   hash as "inside Telegram" and would post its events into nothing (UnknownEnvError), so it is not
//   started; the screens draw their own primary button and Back link instead.

/** What this launch knows: the raw init data the API wants, and whether a Telegram client hosts the page. */
export type Launch = {
  /** As Telegram passed it; every API call sends it as `Authorization: tma <initData>`. */
  initData: string;
  insideTelegram: boolean;
  /** Telegram's colours for this launch (snake_case keys, "#rrggbb" values), {} without. */
  themeParams: Record<string, string>;
  /**
   * The customer's Telegram app language ("de", "pt-br"), unchecked: only a hint of the words to
   * fetch while the catalogue, which names the language the shop speaks to them, loads.
   */
  languageCode: string | null;
};

function hostPresent(): boolean {
  const page = window as unknown as { TelegramWebviewProxy?: { postEvent?: unknown }; external?: { notify?: unknown } };
  if (typeof page.TelegramWebviewProxy?.postEvent === "function") return true;
  if (typeof page.external?.notify === "function") return true;
  try {
    return window.self !== window.top;
  } catch {
    return true; // a cross-origin parent: Telegram Web's frame
  }
}

/** The launch parameters: the SDK's reading (the URL, then what it kept from this tab's first load), else the hash as it is. */
function launchQuery(): URLSearchParams | null {
  try {
    return new URLSearchParams(retrieveRawLaunchParams());
  } catch {
    // The SDK checks every parameter's shape; a client that sends fewer still signed the init data,
    // and the server is what checks that.
    const hash = new URLSearchParams(window.location.hash.slice(1));
    return hash.get("tgWebAppData") ? hash : null;
  }
}

const COLOUR = /^#[0-9a-f]{6}$/i;

function readThemeParams(json: string | null): Record<string, string> {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!parsed || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string" && COLOUR.test(entry[1])));
  } catch {
    return {};
  }
}

function readLanguageCode(initData: string): string | null {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get("user") ?? "null") as { language_code?: unknown } | null;
    return typeof user?.language_code === "string" ? user.language_code : null;
  } catch {
    return null;
  }
}

/** The launch, or null when the page was opened without Telegram's launch parameters. */
export function readLaunch(): Launch | null {
  const query = launchQuery();
  const initData = query?.get("tgWebAppData");
  if (!query || !initData) return null;
  return { initData, insideTelegram: hostPresent(), themeParams: readThemeParams(query.get("tgWebAppThemeParams")), languageCode: readLanguageCode(initData) };
}

/**
 * Telegram's colours as CSS variables on <html> (--tg-theme-bg-color, …, the names the SDK's own
 * binding uses), which web/storefront/storefront.css maps onto the design tokens; the `dark` class
 * follows the background's lightness. Without colours (a plain tab) the system's preference decides.
 * A text colour that would not read on its background (Telegram's own default palettes have such
 * pairs) is set moved until it does (contrast.ts).
 */
export function applyTheme(themeParams: Record<string, string>) {
  const root = document.documentElement;
  const colours = Object.fromEntries(Object.entries(themeParams).filter(([, value]) => typeof value === "string" && COLOUR.test(value)));
  for (const [key, value] of Object.entries(readableTheme(colours))) {
    root.style.setProperty(`--tg-theme-${key.replaceAll("_", "-")}`, value);
  }
  const background = themeParams.bg_color;
  const dark = background ? isColorDark(background) : window.matchMedia("(prefers-color-scheme: dark)").matches;
  root.classList.toggle("dark", dark);
  root.classList.toggle("tg-theme", Boolean(background));
}

/** Starts the SDK inside a Telegram client and tells the client the page is ready; applies the theme either way. */
export function startTelegram(launch: Launch) {
  applyTheme(launch.themeParams);
  if (!launch.insideTelegram) return;
  try {
    init();
    mainButton.mount.ifAvailable();
    backButton.mount.ifAvailable();
    on("theme_changed", ({ theme_params }) => applyTheme(theme_params as Record<string, string>));
    miniApp.ready.ifAvailable();
    // Full height on phones: the catalogue and checkout are long.
    postEvent("web_app_expand");
  } catch {
    // An old or unusual client: the page still works with its own buttons.
  }
}

export type MainButtonState = { text: string; enabled: boolean; busy: boolean };

/** Shows Telegram's Main Button with this text and click; answers how to take it away again. */
export function showMainButton(state: MainButtonState, onClick: () => void): () => void {
  if (!mainButton.setParams.isAvailable()) return () => {};
  mainButton.setParams({ text: state.text, isVisible: true, isEnabled: state.enabled, isLoaderVisible: state.busy });
  const off = mainButton.onClick(onClick);
  return () => {
    off();
    mainButton.setParams.ifAvailable({ isVisible: false, isLoaderVisible: false });
  };
}

/** Shows Telegram's Back Button; answers how to hide it again. */
export function showBackButton(onClick: () => void): () => void {
  if (!backButton.show.isAvailable()) return () => {};
  backButton.show();
  const off = backButton.onClick(onClick);
  return () => {
    off();
    backButton.hide.ifAvailable();
  };
}

/** A tap felt on the phone: an item added, an error, a success. Nothing outside Telegram. */
export const haptic = {
  added: () => void hapticFeedback.impactOccurred.ifAvailable("light"),
  error: () => void hapticFeedback.notificationOccurred.ifAvailable("error"),
  success: () => void hapticFeedback.notificationOccurred.ifAvailable("success"),
};

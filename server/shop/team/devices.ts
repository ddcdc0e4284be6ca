// A session's device in words ("Chrome on Linux") for the session lists (issue 25). ua-parser-js is
// not among the server's packages, and a person only needs to tell their phone from their laptop, so
// a short ordered list of the browsers and systems in use today does it. Order matters: Edge and
// Opera say "Chrome" too, and every Chromium-based browser says "Safari".

const BROWSERS: [pattern: RegExp, name: string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bcurl\//i, "curl"],
  [/\bnode(-fetch)?\b|\bundici\b/i, "Script"],
];

const SYSTEMS: [pattern: RegExp, name: string][] = [
  [/\bWindows\b/, "Windows"],
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** "Chrome on Linux", "Safari on iPhone", "Firefox", "Unknown device" when there is nothing to go on. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown device");
}

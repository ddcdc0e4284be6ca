// Readable text in whatever colours Telegram sends (docs/decisions/0039-mini-app-storefront.md,
// "Telegram's colours, readable"). Telegram's own palettes put white text on a button of 3.3:1
// (#3390ec) to 4.1:1 (#2481cc), and a hint or link colour on the page's background can be as low;
// WCAG 2.1 AA (success criterion 1.4.3) wants 4.5:1 for text of the size the storefront uses. A pair
// below that has one of its colours moved towards black or white, as little as reaches 4.5:1; a
// passing pair stays as Telegram chose it. Contrast as WCAG 2.1 defines it: relative luminance of
// sRGB, (L1 + 0.05) / (L2 + 0.05). A few lines of arithmetic: no colour library is worth its bytes in
// the page's script budget.

/** The contrast WCAG 2.1 AA wants for text under 18pt (14pt bold). */
export const READABLE_CONTRAST = 4.5;

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
type Rgb = [number, number, number];

function rgbOf(colour: string): Rgb {
  const value = Number.parseInt(colour.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function hexOf(rgb: Rgb): string {
  return `#${rgb.map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
}

function luminance(colour: string): number {
  const [r, g, b] = rgbOf(colour).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1's contrast ratio of two "#rrggbb" colours: 1 (the same) to 21 (black on white). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

const STEPS = 256;

/** `colour` mixed with `extreme` ("#000000" or "#ffffff"), `step` of STEPS of the way there (STEPS: the extreme itself). */
function mixed(colour: string, extreme: Rgb, step: number): string {
  const from = rgbOf(colour);
  return hexOf(from.map((channel, index) => Math.round(channel + ((extreme[index]! - channel) * step) / STEPS)) as Rgb);
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/**
 * `moving`, changed as little as reaches `READABLE_CONTRAST` against each of `surfaces` (unchanged
 * when it does already). It moves further the way it already lies from the first surface (a grey hint
 * on white: darker), or, when even black or white that way falls short, the other way. Against one
 * surface one of the two always reaches 4.5:1: black against a colour of luminance L gives
 * (L + 0.05) / 0.05, white 1.05 / (L + 0.05), and the larger of the two is never below 4.58. Surfaces
 * either side of a mid grey (luminance 0.175 to 0.183) can have no colour that reads on both: then
 * the extreme that reads best. Along the way to an extreme, once the contrast reaches 4.5:1 it stays
 * there (each channel moves one way), so the fewest steps are found by halving.
 */
export function readableAgainst(moving: string, surfaces: string | readonly string[]): string {
  const fixed = typeof surfaces === "string" ? [surfaces] : surfaces;
  if (!HEX_COLOUR.test(moving) || fixed.length === 0 || !fixed.every((surface) => HEX_COLOUR.test(surface))) return moving;
  const leastContrast = (colour: string) => Math.min(...fixed.map((surface) => contrastRatio(colour, surface)));
  const reads = (colour: string) => leastContrast(colour) >= READABLE_CONTRAST;
  if (reads(moving)) return moving;
  const ways = luminance(moving) >= luminance(fixed[0]!) ? [WHITE, BLACK] : [BLACK, WHITE];
  const way = ways.find((extreme) => reads(hexOf(extreme)));
  if (!way) return [hexOf(BLACK), hexOf(WHITE)].sort((a, b) => leastContrast(b) - leastContrast(a))[0]!;
  let low = 0;
  let high = STEPS;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (reads(mixed(moving, way, middle))) high = middle;
    else low = middle;
  }
  return mixed(moving, way, high);
}

/** Telegram's theme parameters (snake_case keys, "#rrggbb" values) as sent for a launch. */
export type ThemeParams = Record<string, string>;

/**
 * The theme with every pair the storefront draws text in made readable (web/storefront/storefront.css
 * maps the keys): the text, hint and link colours on the page's background and on its cards (the
 * secondary and section backgrounds, each falling back to bg_color as the CSS does), and the button's
 * text on the button, where the button's colour moves (the text stays the colour Telegram chose).
 * Without a background colour the page draws its own tokens, and nothing is changed.
 */
export function readableTheme(theme: ThemeParams): ThemeParams {
  const background = theme.bg_color;
  if (!background) return theme;
  const readable = { ...theme };
  const surfaces = [theme.secondary_bg_color ?? background, theme.section_bg_color ?? background];
  // Without a link colour the CSS draws links in the button's: it is given as the link colour, made readable as one.
  const link = theme.link_color ?? theme.button_color;
  if (link) readable.link_color = link;
  for (const key of ["text_color", "hint_color", "link_color"]) {
    if (readable[key]) readable[key] = readableAgainst(readable[key], surfaces);
  }
  if (theme.button_color && theme.button_text_color) readable.button_color = readableAgainst(theme.button_color, theme.button_text_color);
  return readable;
}

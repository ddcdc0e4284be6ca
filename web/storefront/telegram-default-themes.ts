import type { ThemeParams } from "./contrast";

/**
 * Telegram's own default palettes, as its clients send them without a custom theme. Several of their
 * pairs fall short of WCAG AA's 4.5:1 (white on the light button, the light hint, the dark link and
 * button), which the page corrects (contrast.ts). Not part of the page: its tests (contrast.test.ts,
 * e2e/storefront.spec.ts) draw the storefront in them.
 */
export const TELEGRAM_DEFAULT_THEMES = {
  light: {
    bg_color: "#ffffff",
    text_color: "#000000",
    hint_color: "#999999",
    link_color: "#2481cc",
    button_color: "#2481cc",
    button_text_color: "#ffffff",
    secondary_bg_color: "#efeff3",
  },
  dark: {
    bg_color: "#212121",
    text_color: "#ffffff",
    hint_color: "#aaaaaa",
    link_color: "#8774e1",
    button_color: "#8774e1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#181818",
  },
} satisfies Record<"light" | "dark", ThemeParams>;

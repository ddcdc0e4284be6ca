import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contrastRatio, READABLE_CONTRAST, readableAgainst, readableTheme, type ThemeParams } from "./contrast";
import { TELEGRAM_DEFAULT_THEMES } from "./telegram-default-themes";

// The storefront's readable colours (contrast.ts): whatever pair Telegram sends, the text drawn in it
// reaches WCAG AA's 4.5:1, and a pair that does already is left as Telegram chose it. The page in
// Telegram's default palettes, checked by axe, is in e2e/storefront.spec.ts.

const colour = fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, "0")}`);

const { light: TELEGRAM_LIGHT, dark: TELEGRAM_DARK } = TELEGRAM_DEFAULT_THEMES;

/** Every pair the storefront draws text in (storefront.css): [text, surface]. */
function textPairs(theme: ThemeParams): [string, string][] {
  const surfaces = [theme.secondary_bg_color ?? theme.bg_color!, theme.section_bg_color ?? theme.bg_color!];
  return [
    ...["text_color", "hint_color", "link_color"].flatMap((key) => surfaces.map((surface): [string, string] => [theme[key]!, surface])),
    [theme.button_text_color!, theme.button_color!],
  ];
}

describe("readable colours", () => {
  it("measures contrast as WCAG 2.1 does", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    // Telegram's buttons: white on #3390ec is 3.3:1, on #2481cc 4.1:1 (both short of 4.5).
    expect(contrastRatio("#ffffff", "#3390ec")).toBeCloseTo(3.31, 2);
    expect(contrastRatio("#ffffff", "#2481cc")).toBeCloseTo(4.13, 2);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it("moves any colour as far as reaches 4.5:1 against any other, and no further than one step", () => {
    fc.assert(
      fc.property(colour, colour, (moving, fixed) => {
        const readable = readableAgainst(moving, fixed);
        expect(readable).toMatch(/^#[0-9a-f]{6}$/);
        expect(contrastRatio(readable, fixed)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
        if (contrastRatio(moving, fixed) >= READABLE_CONTRAST) expect(readable).toBe(moving);
        // Just past 4.5:1 (one step of 1/256 of the way to black or white moves it by less than 0.6).
        else expect(contrastRatio(readable, fixed)).toBeLessThan(READABLE_CONTRAST + 0.6);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the direction a colour already lies in when that reaches 4.5:1: a grey hint on white darkens, on black lightens", () => {
    // #767676 is the lightest grey that reads on white.
    expect(readableAgainst("#999999", "#ffffff")).toBe("#767676");
    expect(readableAgainst("#555555", "#000000")).toBe("#757575");
    // White text on a mid grey: the grey (here the one moving) darkens rather than turning white-on-white.
    const button = readableAgainst("#3390ec", "#ffffff");
    expect(contrastRatio(button, "#ffffff")).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    expect(parseInt(button.slice(1, 3), 16)).toBeLessThan(0x33);
  });

  it("makes every text pair of any theme readable, and leaves a readable theme alone", () => {
    const theme = fc.record(
      {
        bg_color: colour,
        text_color: colour,
        hint_color: colour,
        link_color: colour,
        button_color: colour,
        button_text_color: colour,
        secondary_bg_color: colour,
        section_bg_color: colour,
      },
      { requiredKeys: ["bg_color", "text_color", "hint_color", "button_color", "button_text_color"] },
    );
    fc.assert(
      fc.property(theme, (sent) => {
        const readable = readableTheme(sent);
        const surfaces = [sent.secondary_bg_color ?? sent.bg_color, sent.section_bg_color ?? sent.bg_color];
        // Surfaces either side of a mid grey (or one black, one white) have no colour readable on both.
        const helpable = ["#000000", "#ffffff"].some((extreme) => surfaces.every((surface) => contrastRatio(extreme, surface) >= READABLE_CONTRAST));
        if (helpable) for (const [text, surface] of textPairs(readable)) expect(contrastRatio(text, surface)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
        expect(contrastRatio(readable.button_text_color!, readable.button_color!)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
        // Telegram's own colours where they are readable; the surfaces and the button's text never change.
        for (const key of ["bg_color", "secondary_bg_color", "section_bg_color", "button_text_color"] as const) expect(readable[key]).toBe(sent[key]);
        if (textPairs({ ...sent, link_color: sent.link_color ?? sent.button_color }).every(([text, surface]) => contrastRatio(text, surface) >= READABLE_CONTRAST)) {
          expect(readable).toEqual({ ...sent, link_color: sent.link_color ?? sent.button_color });
        }
      }),
      { numRuns: 500 },
    );
  });

  it("fixes Telegram's default light and dark palettes where they fall short, and only there", () => {
    const light = readableTheme(TELEGRAM_LIGHT);
    for (const [text, surface] of textPairs(light)) expect(contrastRatio(text, surface)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    expect(light).toMatchObject({ text_color: "#000000", bg_color: "#ffffff", secondary_bg_color: "#efeff3", button_text_color: "#ffffff" });
    expect(light.hint_color).not.toBe("#999999");
    expect(light.link_color).not.toBe("#2481cc");
    expect(light.button_color).not.toBe("#2481cc");

    const dark = readableTheme(TELEGRAM_DARK);
    for (const [text, surface] of textPairs(dark)) expect(contrastRatio(text, surface)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    // The hint reads already (6.9:1 on #212121); the violet link lightens, the violet button under white text darkens.
    expect(dark).toMatchObject({ text_color: "#ffffff", hint_color: "#aaaaaa", bg_color: "#212121", button_text_color: "#ffffff" });
    expect(luminanceOrder(dark.link_color!, "#8774e1")).toBe("lighter");
    expect(luminanceOrder(dark.button_color!, "#8774e1")).toBe("darker");
  });

  it("reads on every surface given, and on surfaces no colour can serve, reads as well as black or white can", () => {
    fc.assert(
      fc.property(colour, colour, colour, (moving, first, second) => {
        const readable = readableAgainst(moving, [first, second]);
        const least = (candidate: string) => Math.min(contrastRatio(candidate, first), contrastRatio(candidate, second));
        if (least(moving) >= READABLE_CONTRAST) expect(readable).toBe(moving);
        else if (Math.max(least("#000000"), least("#ffffff")) >= READABLE_CONTRAST) expect(least(readable)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
        else expect(least(readable)).toBe(Math.max(least("#000000"), least("#ffffff")));
      }),
      { numRuns: 1000 },
    );
    // Either side of a mid grey: black reads on the lighter, white on the darker, neither on both.
    expect(readableAgainst("#777777", ["#747474", "#787878"])).toMatch(/^#(000000|ffffff)$/);
  });

  it("changes nothing without a background colour (the page's own tokens), and ignores what is not a colour", () => {
    expect(readableTheme({ button_color: "#3390ec", button_text_color: "#ffffff" })).toEqual({ button_color: "#3390ec", button_text_color: "#ffffff" });
    expect(readableAgainst("red", "#ffffff")).toBe("red");
    expect(readableAgainst("#ffffff", "url(x)")).toBe("#ffffff");
  });
});

function luminanceOrder(colour: string, than: string): "lighter" | "darker" {
  return contrastRatio(colour, "#000000") > contrastRatio(than, "#000000") ? "lighter" : "darker";
}

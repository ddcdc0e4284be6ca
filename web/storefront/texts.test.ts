import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../contract/languages";
import { englishTexts, firstLanguage, loadTexts, type Texts } from "./texts";

// The storefront's dictionaries (web/storefront/locales/): TypeScript already wants every key of a
// whole `Texts`; this catches what it cannot: a sentence left in English by a copy-paste, a function
// that answers nothing for some count, and plural forms that are wrong in Russian and Ukrainian.

/** Counts as the plural rules split them: zero, one, few, many, and 21 (one again in ru and uk). */
const COUNTS = [0, 1, 2, 5, 21];

/** What a dictionary entry says: a sentence as it is; a function once for each count, given as every argument. */
function samples(text: Texts[keyof Texts]): string[] {
  if (typeof text === "string") return [text];
  const say = text as (...args: unknown[]) => string;
  return COUNTS.map((count) => say(...Array.from({ length: say.length }, () => count)));
}

const others = LANGUAGES.filter((language) => language !== "en");

describe("the storefront's dictionaries", () => {
  it("English is at hand without a fetch, and a language without a dictionary reads English", async () => {
    expect(await loadTexts("en")).toBe(englishTexts);
    expect(await loadTexts(null)).toBe(englishTexts);
  });

  it.each(others)("%s has every sentence of English, translated, and answers every sample count", async (language) => {
    const texts = await loadTexts(language);
    expect(texts).not.toBe(englishTexts);
    expect(Object.keys(texts).sort()).toEqual(Object.keys(englishTexts).sort());

    const sameAsEnglish: string[] = [];
    for (const key of Object.keys(englishTexts) as (keyof Texts)[]) {
      const ours = texts[key];
      expect(typeof ours, key).toBe(typeof englishTexts[key]);
      const said = samples(ours);
      for (const sentence of said) expect(sentence.trim(), `${language}.${key}`).not.toBe("");
      if (said.join("|") === samples(englishTexts[key]).join("|")) sameAsEnglish.push(key);
    }
    // A few words are the same in both ("Shop", "Name", "Total", "2 × Tee"); more is an untranslated copy.
    expect(sameAsEnglish.length, `the same as English: ${sameAsEnglish.join(", ")}`).toBeLessThanOrEqual(5);
  });

  it("Russian and Ukrainian count in one, few and many forms", async () => {
    const ru = await loadTexts("ru");
    expect(COUNTS.map((count) => ru.productCount(count))).toEqual(["0 товаров", "1 товар", "2 товара", "5 товаров", "21 товар"]);
    expect(ru.estimatedDays(3)).toBe("примерно 3 дня");
    expect(ru.fieldTooLong("Индекс", 20)).toBe("Индекс: не более 20 символов");
    const uk = await loadTexts("uk");
    expect(COUNTS.map((count) => uk.cartCount(count))).toEqual(["0 товарів", "1 товар", "2 товари", "5 товарів", "21 товар"]);
    expect(uk.estimatedDays(11)).toBe("приблизно 11 днів");
  });

  it("French counts 0 as one, German and Spanish as many", async () => {
    expect((await loadTexts("fr")).productCount(0)).toBe("0 produit");
    expect((await loadTexts("de")).productCount(0)).toBe("0 Produkte");
    expect((await loadTexts("es")).estimatedDays(1)).toBe("1 día aprox.");
  });
});

describe("the storefront's first language (before the catalogue names one)", () => {
  it("is the customer's Telegram app language, read as the bot reads Telegram's codes", () => {
    expect(firstLanguage("de", ["en-GB"])).toBe("de");
    expect(firstLanguage("uk-UA", [])).toBe("uk");
    expect(firstLanguage("FR", ["de"])).toBe("fr");
  });

  it("else the first of the browser's languages the storefront has words for, else English", () => {
    expect(firstLanguage(null, ["de-DE", "en"])).toBe("de");
    expect(firstLanguage(undefined, ["pt-BR", "it", "es-419", "ru"])).toBe("es");
    // A Telegram language the storefront lacks: the browser's next.
    expect(firstLanguage("pt-br", ["ru-RU"])).toBe("ru");
    expect(firstLanguage("pt-br", ["it-IT"])).toBe("en");
    expect(firstLanguage(null, [])).toBe("en");
  });

  it("answers one of the six languages whatever the codes say", () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.array(fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "de-", "-de", "de_DE", " de"))), (telegram, browser) => {
        expect(LANGUAGES).toContain(firstLanguage(telegram, browser));
      }),
    );
  });
});

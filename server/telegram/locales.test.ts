import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../contract";
import { LOCALES_DIRECTORY } from "../shop/languages";

// The bot's texts (issue 26): every shipped language has every English key, no more, parses without
// a Fluent error, and uses the variables English uses (a price or an order number never goes missing).

const source = (language: string) => readFileSync(path.join(LOCALES_DIRECTORY, `${language}.ftl`), "utf8");

/** Each message of a file with its text (the key's line and its indented continuation lines). */
function messages(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split("\n")) {
    const start = /^([a-z][a-z0-9-]*)\s*=(.*)$/.exec(line);
    if (start) {
      current = start[1]!;
      found.set(current, start[2]!);
    } else if (current && (/^\s+\S/.test(line) || line.trim() === "")) {
      found.set(current, `${found.get(current)}\n${line}`);
    } else {
      current = null;
    }
  }
  return found;
}

const variables = (text: string) => new Set([...text.matchAll(/\{\s*\$([A-Za-z][\w-]*)/g)].map((m) => m[1]!));

const english = messages(source("en"));

describe("the bot's locale files", () => {
  it("ships one file per language of the contract, and no other", () => {
    const files = readdirSync(LOCALES_DIRECTORY).filter((name) => name.endsWith(".ftl")).map((name) => name.replace(/\.ftl$/, ""));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
    expect(english.size).toBeGreaterThan(100);
  });

  it.each([...LANGUAGES])("%s parses without a Fluent error, every message kept", (language) => {
    const text = source(language);
    const resource = new FluentResource(text);
    const bundle = new FluentBundle(language, { useIsolating: false });
    expect(bundle.addResource(resource)).toEqual([]);
    // A syntax error turns a message into junk, which the parser drops without a word: count them.
    const keys = [...messages(text).keys()];
    expect(keys.filter((key) => !bundle.hasMessage(key))).toEqual([]);
    for (const key of keys) {
      const errors: Error[] = [];
      const sample = Object.fromEntries([...variables(messages(text).get(key)!)].map((name) => [name, 2]));
      bundle.formatPattern(bundle.getMessage(key)!.value!, sample, errors);
      expect(errors.map(String), `${language}: ${key}`).toEqual([]);
    }
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))("%s has every English key and no other, with English's variables", (language) => {
    const translated = messages(source(language));
    expect([...english.keys()].filter((key) => !translated.has(key)), "keys missing").toEqual([]);
    expect([...translated.keys()].filter((key) => !english.has(key)), "keys English lacks").toEqual([]);
    for (const [key, text] of english) {
      expect([...variables(translated.get(key)!)].sort(), `${language}: ${key}`).toEqual([...variables(text)].sort());
    }
  });
});

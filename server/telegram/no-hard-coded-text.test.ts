import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every word the bot sends comes from the locale files (issue 26): a string literal that reads like
// text for a customer, handed straight to a call that sends or labels something, fails here.

const TELEGRAM_DIR = import.meta.dirname;

/** The calls whose text reaches a customer. */
const SENDERS = ["reply", "say", "show", "notice", "sendMessage", "editMessageText", "answerCallbackQuery", "text", "showMainMenu", "sendPhoto", "replyWithPhoto", "webApp"];
/** A literal (plain or template) as the first argument, or as `text:`/`caption:` in an options object. */
const CALL = new RegExp(`\\b(?:${SENDERS.join("|")})\\(\\s*(?:ctx,\\s*)?("(?:[^"\\\\]|\\\\.)*"|\`(?:[^\`\\\\]|\\\\.)*\`)`, "g");
const FIELD = /\b(?:text|caption)\s*:\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)/g;

/** Reads like words for a person: two words of letters, or an emoji before a letter. */
function looksLikeCustomerText(literal: string): boolean {
  const plain = literal.slice(1, -1).replace(/\$\{[^}]*\}/g, " ");
  return /\p{L}{2,}\s+\p{L}{2,}/u.test(plain) || /\p{Extended_Pictographic}\s*\p{L}/u.test(plain);
}

function hardCodedTexts(code: string): string[] {
  return [...code.matchAll(CALL), ...code.matchAll(FIELD)].map((m) => m[1]!).filter(looksLikeCustomerText);
}

/**
 * The shop's English sentence of a refusal (a ShopError's message, a *_MESSAGE constant) handed to a
 * sender, or as a locale text's variable: the bot says refusals with ctx.tr.refusal(error) /
 * ctx.tr.say(text), in the customer's language. A message read for the log is not sent.
 */
const SHOP_SENTENCE = new RegExp(
  `\\b(?:${SENDERS.join("|")})\\(\\s*(?:ctx,\\s*)?(?:\\w+\\.message\\b|[A-Z][A-Z_]*_MESSAGE\\b)|\\b(?:text|reason|caption)\\s*:\\s*(?:\\w+\\.message\\b|[A-Z][A-Z_]*_MESSAGE\\b)`,
  "g",
);
function untranslatedRefusals(code: string): string[] {
  return [...code.matchAll(SHOP_SENTENCE)].map((m) => m[0]);
}

function botSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "locales" ? [] : botSources(full);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("no customer text is hard-coded in the bot", () => {
  it("finds the kind of line it is there to catch", () => {
    expect(hardCodedTexts('await ctx.reply("Hello there");')).toEqual(['"Hello there"']);
    expect(hardCodedTexts("keyboard.text(`🛒 Cart`, data(\"cart\"));")).toEqual(["`🛒 Cart`"]);
    expect(hardCodedTexts('keyboard.webApp("🛍 Open shop", storefrontUrl);')).toEqual(['"🛍 Open shop"']);
    expect(hardCodedTexts('await notice(ctx, "That product is gone.", true);')).toEqual(['"That product is gone."']);
    expect(hardCodedTexts('await ctx.answerCallbackQuery({ text: "Sold out today", show_alert: true });')).toEqual(['"Sold out today"']);
    expect(hardCodedTexts('await ctx.reply(ctx.t("welcome-default"));')).toEqual([]);
    expect(hardCodedTexts("keyboard.text(`${tier.minQuantity}+`, data(`prod:${id}`));")).toEqual([]);
  });

  it("finds a refusal sent in the shop's English", () => {
    expect(untranslatedRefusals("    await notice(ctx, error.message, true);")).toEqual(["notice(ctx, error.message"]);
    expect(untranslatedRefusals('problem: ctx.t("warning", { text: error.message })')).toEqual(["text: error.message"]);
    expect(untranslatedRefusals("await notice(ctx, PAYMENTS_UNAVAILABLE_MESSAGE, true);")).toEqual(["notice(ctx, PAYMENTS_UNAVAILABLE_MESSAGE"]);
    expect(untranslatedRefusals("await notice(ctx, ctx.tr.refusal(error), true);")).toEqual([]);
    expect(untranslatedRefusals('log.warn({ err: error.message }, "broadcast: retrying");')).toEqual([]);
  });

  it("no refusal in server/telegram is sent in the shop's English", () => {
    const found = botSources(TELEGRAM_DIR).flatMap((file) => untranslatedRefusals(readFileSync(file, "utf8")).map((line) => `${path.relative(TELEGRAM_DIR, file)}: ${line}`));
    expect(found).toEqual([]);
  });

  it("in server/telegram (tests and locale files aside)", () => {
    const found = botSources(TELEGRAM_DIR).flatMap((file) =>
      hardCodedTexts(readFileSync(file, "utf8")).map((literal) => `${path.relative(TELEGRAM_DIR, file)}: ${literal}`),
    );
    expect(found).toEqual([]);
  });
});

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every word the bot sends comes from the locale files (issue 26): a string literal that reads like
// text for a customer, handed straight to a call that sends or labels something, fails here.

const TELEGRAM_DIR = import.meta.dirname;

/** The calls whose text reaches a customer. */
const SENDERS = ["reply", "say", "show", "notice", "sendMessage", "editMessageText", "answerCallbackQuery", "text", "showMainMenu", "sendPhoto", "replyWithPhoto"];
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
    expect(hardCodedTexts('await notice(ctx, "That product is gone.", true);')).toEqual(['"That product is gone."']);
    expect(hardCodedTexts('await ctx.answerCallbackQuery({ text: "Sold out today", show_alert: true });')).toEqual(['"Sold out today"']);
    expect(hardCodedTexts('await ctx.reply(ctx.t("welcome-default"));')).toEqual([]);
    expect(hardCodedTexts("keyboard.text(`${tier.minQuantity}+`, data(`prod:${id}`));")).toEqual([]);
  });

  it("in server/telegram (tests and locale files aside)", () => {
    const found = botSources(TELEGRAM_DIR).flatMap((file) =>
      hardCodedTexts(readFileSync(file, "utf8")).map((literal) => `${path.relative(TELEGRAM_DIR, file)}: ${literal}`),
    );
    expect(found).toEqual([]);
  });
});

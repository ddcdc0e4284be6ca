import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES_DIRECTORY, translatorFor } from "../languages";
import { type AddressField, checkAddressField } from "./address";
import { type CouponRefusalReason, refusalMessage, refusalText } from "./coupon-rules";
import { TOO_MANY_UNPAID_ORDERS, TOO_MANY_UNPAID_ORDERS_MESSAGE } from "./unpaid-orders";

// The shop's refusals reach a customer in the bot by their locale key (issue 26). English is the
// shop's own sentence (the dashboard's and the API's); en.ftl must say the same, word for word, or a
// translator would translate something the shop does not say.

const EN = translatorFor("en");
const DE = translatorFor("de");

describe("the shop's sentences for customers, by locale key", () => {
  it("English locale texts are the shop's own coupon refusals", () => {
    const detail = { startsAt: new Date("2026-12-01T00:00:00Z"), minSubtotalPence: 2500, itemsPence: 1999 };
    const reasons: CouponRefusalReason[] = ["unknown", "expired", "not-started", "used-up", "already-used", "minimum-not-met", "not-for-these-items", "first-order-only"];
    for (const reason of reasons) expect(EN.say(refusalText(reason, "SAVE10", detail)), reason).toBe(refusalMessage(reason, "SAVE10", detail));
    expect(EN.say(refusalText("unknown", ""))).toBe(refusalMessage("unknown", ""));
    expect(EN.say(refusalText("not-started", "SAVE10"))).toBe(refusalMessage("not-started", "SAVE10"));
  });

  it("English locale texts are the shop's own address checks", () => {
    const bad: Record<AddressField, string> = { name: "1", street: "x", postcode: "hello", contact: "a" };
    for (const [field, typed] of Object.entries(bad) as [AddressField, string][]) {
      const checked = checkAddressField(field, typed);
      if (!("problem" in checked)) throw new Error(`${field} should be refused`);
      expect(EN.say(checked.customerText), field).toBe(checked.problem);
    }
  });

  it("English locale text is the shop's own refusal of a customer with too many unpaid orders", () => {
    expect(EN.say(TOO_MANY_UNPAID_ORDERS)).toBe(TOO_MANY_UNPAID_ORDERS_MESSAGE);
    expect(DE.say(TOO_MANY_UNPAID_ORDERS)).toMatch(/^Du hast schon 3 Bestellungen, die auf deine Zahlung warten\./);
    expect(translatorFor("ru").say(TOO_MANY_UNPAID_ORDERS)).toMatch(/^У вас уже 3 заказа ждут оплаты\./);
    expect(translatorFor("uk").say(TOO_MANY_UNPAID_ORDERS)).toMatch(/^У вас уже 3 замовлення чекають на оплату\./);
  });

  it("every key the shop's rules name is in the locale files", () => {
    const english = new Set([...readFileSync(path.join(LOCALES_DIRECTORY, "en.ftl"), "utf8").matchAll(/^([a-z][\w-]*) =/gm)].map((m) => m[1]));
    const shopDir = path.join(import.meta.dirname, "..");
    const sources = readdirSync(shopDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));
    const named = sources.flatMap((file) => [...readFileSync(path.join(shopDir, file), "utf8").matchAll(/\bkey: "([a-z][\w-]*)"/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((key) => !english.has(key))).toEqual([]);
  });

  it("writes a refusal's prices and days the customer's way", () => {
    const detail = { startsAt: new Date("2026-12-01T00:00:00Z"), minSubtotalPence: 2500, itemsPence: 1999 };
    expect(DE.say(refusalText("not-started", "SAVE10", detail))).toBe("Der Gutschein SAVE10 gilt noch nicht: Er startet am 1. Dezember 2026.");
    expect(DE.say(refusalText("minimum-not-met", "SAVE10", detail))).toBe(
      "Der Gutschein SAVE10 gilt ab einem Warenwert von 25,00\u00a0£ (ohne Versand); deiner liegt bei 19,99\u00a0£.",
    );
  });
});

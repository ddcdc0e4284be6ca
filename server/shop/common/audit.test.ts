import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN, SUMMARY_MAX, SUMMARY_VALUE_MAX, summariseChange } from "./audit";

// What an audit entry's summary may hold (issue 13, item 6): the change in short, never a secret.

const SECRET_KEYS = ["password", "botToken", "nowpaymentsApiKey", "nowpaymentsIpnSecret", "secretKey", "api_key", "x-nowpayments-sig"];

describe("summariseChange", () => {
  it("never shows a secret field's value, at any depth, whatever else the body holds", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/);
    const ordinary = fc.dictionary(fc.constantFrom("name", "price", "notes", "status"), fc.oneof(fc.string(), fc.integer(), fc.boolean()));
    fc.assert(
      fc.property(ordinary, fc.constantFrom(...SECRET_KEYS), secret, fc.boolean(), (fields, key, value, nested) => {
        const body = nested ? { ...fields, settings: { [key]: value } } : { ...fields, [key]: value };
        const summary = summariseChange(body);
        expect(summary).not.toContain(value);
        expect(summary).toContain(HIDDEN);
        expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
      }),
      { numRuns: 300 },
    );
  });

  it("hides a bot token written into any other field", () => {
    expect(summariseChange({ welcomeMessage: "Our bot is 7000000001:AAE-abcdefghijklmnop" })).toBe(`welcomeMessage: "Our bot is ${HIDDEN}"`);
  });

  it("cuts long values and leaves out empty ones; a body that is not an object says nothing", () => {
    const summary = summariseChange({ description: "x".repeat(1000), icon: null, stock: 3 });
    expect(summary).toMatch(new RegExp(`^description: "x{${SUMMARY_VALUE_MAX - 2}}…, stock: 3$`));
    expect(summariseChange(Buffer.from("image bytes"))).toBe("");
    expect(summariseChange(undefined)).toBe("");
    expect(summariseChange(["a"])).toBe("");
  });
});

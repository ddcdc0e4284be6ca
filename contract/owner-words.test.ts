import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as contract from "./index";
import { fieldLabel, fieldSentence, ownerErrorMessage } from "./owner-words";

// What the owner reads when input is refused (contract/owner-words.ts): the field by its label and
// the limit in words, never zod's words for developers.
const DEVELOPER_WORDS = /expected|received|<=|>=|\bstring\b|\bNaN\b|\bundefined\b|Invalid input|Too (big|small)|\bnumber\b.*\bnumber\b/i;

const messagesOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];

describe("the owner's wording of zod's messages", () => {
  const Form = z.object({
    name: z.string().max(200),
    description: z.string().min(10),
    price: z.number().min(0).max(1000),
    stock: z.int().positive(),
    acceptedCurrencies: z.array(z.enum(["BTC", "LTC", "XMR"])).min(1).max(3),
    webhookUrl: z.url(),
    email: z.email(),
    categoryId: z.uuid(),
    postcode: z.string().regex(/^[A-Z0-9 ]+$/),
    startsAt: z.date().min(new Date("2026-01-01T00:00:00Z")),
    isActive: z.boolean(),
    quantity: z.number().multipleOf(5),
  });
  const valid = {
    name: "Acceptance Tee",
    description: "A tee for the acceptance test",
    price: 10,
    stock: 3,
    acceptedCurrencies: ["BTC"],
    webhookUrl: "https://example.com/hook",
    email: "owner@example.com",
    categoryId: "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
    postcode: "SW1A 1AA",
    startsAt: new Date("2026-06-01T00:00:00Z"),
    isActive: true,
    quantity: 10,
  };
  const cases: [string, Partial<Record<keyof typeof valid, unknown>>, string][] = [
    ["too long", { name: "x".repeat(201) }, "Name can be at most 200 characters"],
    ["too short", { description: "short" }, "Description must be at least 10 characters"],
    ["required", { name: undefined }, "Name is required"],
    ["required (null)", { price: null }, "Price is required"],
    ["not a number", { price: "abc" }, "Price must be a number"],
    ["not a number (NaN)", { price: Number.NaN }, "Price must be a number"],
    ["too big", { price: 1000.5 }, "Price can be at most 1,000"],
    ["too small", { price: -1 }, "Price must be at least 0"],
    ["not above zero", { stock: 0 }, "Stock must be more than 0"],
    ["not whole", { stock: 1.5 }, "Stock must be a whole number"],
    ["empty list", { acceptedCurrencies: [] }, "Accepted cryptocurrencies needs at least one entry"],
    ["long list", { acceptedCurrencies: ["BTC", "LTC", "XMR", "BTC"] }, "Accepted cryptocurrencies can have at most 3 entries"],
    ["no choice made", { acceptedCurrencies: [undefined] }, "Accepted cryptocurrencies is required"],
    ["not a choice", { acceptedCurrencies: ["DOGE"] }, 'Accepted cryptocurrencies must be one of "BTC", "LTC" or "XMR"'],
    ["not a web address", { webhookUrl: "not a url" }, "Webhook URL must be a web address such as https://example.com"],
    ["not an email", { email: "nobody" }, "Email must be an email address"],
    ["not an id", { categoryId: "42" }, "Category must be a valid id"],
    ["invalid format", { postcode: "<b>" }, "Postcode is not in the right format"],
    ["too early", { startsAt: new Date("2025-01-01T00:00:00Z") }, "Starts at must be on or after 2026-01-01"],
    ["not yes or no", { isActive: "yes" }, "Is active must be yes or no (true or false)"],
    ["not a multiple", { quantity: 7 }, "Quantity must be a multiple of 5"],
  ];
  it.each(cases)("%s", (_kind, change, sentence) => {
    expect(messagesOf(Form, { ...valid, ...change })).toEqual([sentence]);
  });

  it("says the whole input, and keys it does not know, in words", () => {
    expect(messagesOf(z.string(), 5)).toEqual(["This value must be text"]);
    expect(messagesOf(z.strictObject({ name: z.string() }), { name: "a", "<script>": 1 })).toEqual([
      'This value has a field this form does not know: "<script>"',
    ]);
  });

  it("names a field by its label, a nested one by its own key", () => {
    expect(fieldLabel(["nowpaymentsIpnSecret"])).toBe("IPN secret key");
    expect(fieldLabel(["bulkPricing", 0, "minQuantity"])).toBe("Minimum quantity");
    expect(fieldLabel(["lowStockThreshold"])).toBe("Low stock threshold");
    expect(fieldLabel(["paymentIdUrl"])).toBe("Payment ID URL");
    expect(fieldLabel([])).toBe("This value");
  });

  it("keeps a schema's own message", () => {
    expect(messagesOf(contract.ProductInputSchema, { name: " ", price: "1" })).toEqual(["Product name is required"]);
  });

  it("is what zod answers for an issue it raises itself", () => {
    const issue = { code: "too_big" as const, origin: "string", maximum: 200, inclusive: true, path: ["name"], input: "" };
    expect(ownerErrorMessage(issue)).toBe("Name can be at most 200 characters");
  });
});

/** Every schema the contract exports (the API's inputs and answers), by its export name. */
const SCHEMAS = (Object.entries(contract) as [string, unknown][]).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);

/** Values that break a field of every kind: missing, of the wrong kind, too long, out of range, malformed. */
const HOSTILE_VALUES: unknown[] = [
  undefined,
  null,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -1,
  0,
  1.5,
  1e20,
  "",
  " ",
  "abc",
  "x".repeat(70_000),
  "<b>1</b>",
  "2026-13-45",
  true,
  [],
  [null, "x".repeat(5_000)],
  {},
  { "<script>": 1 },
];

/** The object whose fields a schema reads, through optional, default, pipe and transform layers. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  if (schema instanceof z.ZodPipe) return shapeOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return shapeOf(schema.unwrap() as z.ZodType);
  }
  return null;
}

describe("no message of the contract's schemas speaks to developers", () => {
  it("finds the contract's schemas", () => {
    expect(SCHEMAS.length).toBeGreaterThan(40);
  });

  it.each(SCHEMAS.map(([name, schema]) => [name, schema] as const))("%s", (_name, schema) => {
    const messages = new Set<string>();
    for (const value of HOSTILE_VALUES) for (const message of messagesOf(schema, value)) messages.add(message);
    const shape = shapeOf(schema);
    if (shape) {
      for (const key of Object.keys(shape)) {
        for (const value of HOSTILE_VALUES) for (const message of messagesOf(schema, { [key]: value })) messages.add(message);
        // Nested lists and objects: their fields broken one at a time too.
        for (const value of [[{}], [{ price: "abc", minQuantity: "x" }], { name: 5 }]) {
          for (const message of messagesOf(schema, { [key]: value })) messages.add(message);
        }
      }
    }
    // And generated input of any shape, from a fixed seed so a failure replays.
    fc.assert(
      fc.property(fc.anything(), (value) => {
        for (const message of messagesOf(schema, value)) messages.add(message);
      }),
      { seed: 22, numRuns: 40 },
    );
    const developerMessages = [...messages].filter((message) => DEVELOPER_WORDS.test(message));
    expect(developerMessages).toEqual([]);
    // Each reads whole in a 400 (fieldSentence): a capitalised sentence, or a predicate the field's
    // label goes in front of; never a key in front of its own predicate ("days must be at least 1").
    const neither = [...messages].filter((message) => /^[a-z]/.test(message) && !/^(must|is|can|cannot|needs|has|may) /.test(message));
    expect(neither).toEqual([]);
  });
});

describe("a schema's own message in the server's 400 (fieldSentence)", () => {
  it("puts the field's label in front of a predicate, and keeps a sentence of its own word for word", () => {
    expect(fieldSentence(["categoryId"], "must be a valid id")).toBe("Category must be a valid id");
    expect(fieldSentence(["bulkPricing", 0, "minQuantity"], "must be at least 2")).toBe("Minimum quantity must be at least 2");
    expect(fieldSentence([], "is not valid")).toBe("This value is not valid");
    expect(fieldSentence(["price"], "Please enter a valid price (e.g., 4.99)")).toBe("Please enter a valid price (e.g., 4.99)");
    expect(fieldSentence(["acceptedCurrencies"], "Select at least one cryptocurrency")).toBe("Select at least one cryptocurrency");
  });

  it("reads as one sentence whatever the key, and leaves zod's own sentences as they are", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat()), { maxLength: 4 }), fc.constantFrom("must be a number", "is required"), (path, predicate) => {
        const sentence = fieldSentence(path, predicate);
        expect(sentence).toBe(`${fieldLabel(path)} ${predicate}`);
        expect(sentence).not.toMatch(/^[a-z]/);
        // A sentence zod's map made already names the field: answered as it is.
        expect(fieldSentence(path, sentence)).toBe(sentence);
      }),
      { seed: 22, numRuns: 200 },
    );
  });
});

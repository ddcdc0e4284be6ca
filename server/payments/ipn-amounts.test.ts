import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, paymentEvents } from "../db/schema";
import { addToCart, checkout } from "../shop/ordering";
import { gatewayAmountText } from "../shop/common";
import { startTestServer, type TestServer } from "../../test-support/app";
import { databaseChecksum } from "../../test-support/checksum";
import { insertProduct } from "../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../test-support/fake-nowpayments";
import { configurePayments, TEST_IPN_SECRET } from "../../test-support/payments-setup";
import { postIpn, signIpn } from "../../test-support/sign-ipn";
import { createNowPaymentsGateway, parseNowPayment } from "../gateways/nowpayments/client";

// Issue 20, item 6: every amount the gateway sends (in a signed IPN or an API answer) is held to one
// strict decimal grammar (shop/common/crypto-amounts.ts, docs/SECURITY.md "Input limits"): digits,
// optionally a point and digits, at most 30 and 18 of them. A signed IPN with anything else is a
// 400 that changes nothing; it used to be read as "nothing received", so "1e400" made a payment
// short. Seeded, so a failure replays.

const SEED = 20261123;
/** Refusals are quick (nothing is written); each accepted case writes and puts the order back. */
const REFUSED_RUNS = 150;
const ACCEPTED_RUNS = 40;
const AMOUNT_FIELDS = ["price_amount", "pay_amount", "actually_paid", "outcome_amount"] as const;

// --- Generators ---

const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength, maxLength });

/** Any text in the grammar: 1-30 digits, optionally a point and 1-18 digits (leading and trailing zeros included). */
const validDecimal = fc
  .tuple(digits(1, 30), fc.option(digits(1, 18), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

/** A short valid decimal, to dress up as an invalid one. */
const smallDecimal = fc
  .tuple(digits(1, 6), fc.option(digits(1, 8), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

const SPACES = [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\ufeff"];
/** Digits of other scripts (Arabic-Indic, Persian, Devanagari, Bengali, Thai, fullwidth, mathematical, NKo, Mongolian) and look-alikes. */
const FOREIGN_DIGITS = ["٣", "۳", "३", "৩", "๓", "３", "𝟑", "߃", "᠓", "³", "₃", "Ⅲ"];

/** Text that is not an amount: each kind the issue names, generated. */
const invalidText = fc.oneof(
  // exponents, either case, with or without a sign, huge or small
  fc
    .tuple(smallDecimal, fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 500 }))
    .map(([mantissa, e, sign, power]) => `${mantissa}${e}${sign}${power}`),
  fc.constantFrom("1e400", "NaN", "nan", "Infinity", "-Infinity", "+Infinity", "inf", "∞", "", ".", "-", "+", "0x", "null", "true"),
  // signs
  fc.tuple(fc.constantFrom("+", "-", "−", "--"), smallDecimal).map(([sign, text]) => sign + text),
  // spaces before or after
  fc
    .tuple(fc.constantFrom(...SPACES), smallDecimal, fc.boolean())
    .map(([space, text, before]) => (before ? space + text : text + space)),
  // "1." and ".5"
  digits(1, 10).map((whole) => `${whole}.`),
  digits(1, 10).map((fraction) => `.${fraction}`),
  // hexadecimal, binary, octal, separators, two points
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: 1, maxLength: 12 }).map((hex) => `0x${hex}`),
  fc.constantFrom("0b101", "0o17", "1,5", "1_000", "1 000", "1.2.3", "1..2", "12'000"),
  // too many digits on either side of the point
  fc.tuple(digits(31, 60), fc.option(digits(1, 18), { nil: undefined })).map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : whole)),
  fc.tuple(digits(1, 30), digits(19, 40)).map(([whole, fraction]) => `${whole}.${fraction}`),
  // one digit from another script
  fc
    .tuple(validDecimal, fc.nat(), fc.constantFrom(...FOREIGN_DIGITS))
    .map(([text, at, foreign]) => {
      const positions = [...text].flatMap((char, index) => (char === "." ? [] : [index]));
      const index = positions[at % positions.length]!;
      return text.slice(0, index) + foreign + text.slice(index + 1);
    }),
);

/** JSON numbers that are not amounts: negative, more than 18 places, more than 30 digits. */
const invalidNumber = fc.oneof(
  fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 19, max: 320 })).map(([digit, power]) => Number(`${digit}e-${power}`)),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 30, max: 308 })).map(([digit, power]) => Number(`${digit}e${power}`)),
);

/** Values that are no amount at all. */
const notAmount = fc.oneof(invalidText, invalidNumber, fc.constantFrom<unknown>(true, false, [], ["1"], {}, { value: "1" }));

/** "0.000500" -> "0.0005", "007" -> "7", "1.0" -> "1": how JavaScript writes the number the text names. */
function canonical(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  const trimmedFraction = fraction.replace(/0+$/, "");
  const trimmedWhole = whole!.replace(/^0+(?=\d)/, "");
  return trimmedFraction ? `${trimmedWhole}.${trimmedFraction}` : trimmedWhole;
}

/**
 * Decimal text that a double holds exactly as written: at most 15 significant digits. Among them
 * numbers under 0.000001, which JavaScript (and so the gateway) writes with an exponent (1.5e-7).
 */
const exactNumberText = fc.oneof(
  fc
    .tuple(digits(1, 7), fc.option(digits(1, 8), { nil: undefined }))
    .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`)),
  fc
    .tuple(fc.integer({ min: 6, max: 10 }), fc.integer({ min: 1, max: 99_999_999 }))
    .map(([zeros, significant]) => `0.${"0".repeat(zeros)}${significant}`)
    .filter((text) => text.length - 2 <= 18),
);

describe("gateway amounts: one strict decimal grammar", () => {
  it("reads text in the grammar as itself, and refuses everything else", () => {
    fc.assert(
      fc.property(validDecimal, (text) => {
        expect(gatewayAmountText(text)).toBe(text);
      }),
      { seed: SEED, numRuns: 500 },
    );
    fc.assert(
      fc.property(notAmount, (value) => {
        expect(gatewayAmountText(value), JSON.stringify(value)).toBeNull();
      }),
      { seed: SEED, numRuns: 1_000 },
    );
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, null, undefined, 10n]) {
      expect(gatewayAmountText(value), String(value)).toBeNull();
    }
  });

  it("writes a JSON number out without an exponent, as the very number it is, or refuses it", () => {
    expect(gatewayAmountText(1e-7)).toBe("0.0000001");
    expect(gatewayAmountText(1.5e-7)).toBe("0.00000015");
    expect(gatewayAmountText(0.0003)).toBe("0.0003");
    expect(gatewayAmountText(1e21)).toBe("1000000000000000000000");
    expect(gatewayAmountText(1.25e29)).toBe("125000000000000000000000000000");
    expect(gatewayAmountText(1e-18)).toBe("0.000000000000000001");
    expect(gatewayAmountText(1e-19)).toBeNull(); // 19 places
    expect(gatewayAmountText(1e30)).toBeNull(); // 31 digits
    // Whatever the double, the text given is that double, exactly (or there is none).
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (value) => {
        const text = gatewayAmountText(value);
        if (text !== null) {
          expect(text).toMatch(/^\d{1,30}(\.\d{1,18})?$/);
          expect(Number(text)).toBe(value);
        } else {
          // Refused only when negative, 1e30 or more, or with more than 18 places (all tiny numbers written with an exponent are checked by their expansion).
          const places = String(value).split(".")[1]?.length ?? 0;
          expect(value < 0 || Object.is(value, -0) || value >= 1e30 || value < 1e-6 || places > 18, String(value)).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it("turns an odd amount in the gateway's API answer into an error, never money", () => {
    const answer = { payment_id: 5_000_000_001, payment_status: "finished", pay_amount: 0.0005, price_amount: 25, actually_paid: 0.0005 };
    expect(parseNowPayment(answer)).toMatchObject({ payAmount: "0.0005", priceAmount: "25", actuallyPaid: "0.0005" });
    expect(parseNowPayment({ ...answer, actually_paid: null, pay_amount: "0.00050" })).toMatchObject({ payAmount: "0.00050", actuallyPaid: null });
    fc.assert(
      fc.property(fc.constantFrom("pay_amount", "price_amount", "actually_paid"), notAmount, (field, value) => {
        expect(() => parseNowPayment({ ...answer, [field]: value }), `${field}: ${JSON.stringify(value)}`).toThrow(
          `The payment service sent an unreadable ${field}. Please try again.`,
        );
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe("POST /api/payments/webhook with odd amounts", () => {
  let server: TestServer;
  let gateway: FakeNowPayments;
  let orderId: string;
  let paymentId: string;

  beforeAll(async () => {
    gateway = await startFakeNowPayments();
    server = await startTestServer({ config: { nowpaymentsApiUrl: gateway.url } });
    await configurePayments(server.deps);
    // One order for the whole file, £25.00 = 0.0005 BTC at the fake's rate, put back between cases.
    const product = await insertProduct(server.deps.db, { name: "Widget", price: "12.50", stock: 10 });
    await addToCart(server.deps.db, "90001", product.id, 2);
    const { order } = await checkout(server.deps, {
      telegramUserId: "90001",
      telegramUsername: null,
      shippingAddress: { name: "Ada", streetAddress: "1 Road", postcode: "AB1 2CD" },
      postageOptionId: null,
      coin: "BTC",
    });
    orderId = order.id;
    paymentId = order.paymentId!;
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.close();
  });

  const ipn = (body: unknown) => postIpn(server.baseUrl, body, { secret: TEST_IPN_SECRET });
  /** Posts JSON text as it is (numbers JSON.stringify cannot write: 1e400, -0), signed over what it parses to, as NOWPayments would sign it. */
  const rawIpn = (json: string) =>
    fetch(`${server.baseUrl}/api/payments/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": signIpn(JSON.parse(json), TEST_IPN_SECRET) },
      body: json,
    });
  const orderRow = async () => (await server.deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  /** The order as checkout left it: waiting for its payment, nothing received, no update seen. */
  async function putBack() {
    await server.deps.db.delete(paymentEvents).where(eq(paymentEvents.orderId, orderId));
    await server.deps.db
      .update(orders)
      .set({ status: "pending", paymentStatus: "waiting", actuallyPaid: null, paidAt: null, adminFlag: null })
      .where(eq(orders.id, orderId));
  }

  it("refuses a signed 'finished' with actually_paid \"1e400\" (once read as a short payment) with 400, and changes nothing", async () => {
    await putBack();
    const before = await databaseChecksum(server.database.db);
    const response = await ipn({ ...gateway.ipnBody(paymentId, "finished"), actually_paid: "1e400" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Invalid actually_paid: must be an amount" });
    // The same as JSON numbers the server cannot hold (Infinity once parsed), and negative zero.
    const body = JSON.stringify(gateway.ipnBody(paymentId, "finished"));
    for (const [field, raw] of [["actually_paid", "1e400"], ["actually_paid", "-1e400"], ["pay_amount", "1E400"], ["actually_paid", "-0"], ["price_amount", "-0.0"], ["outcome_amount", "-1e-7"]]) {
      const response = await rawIpn(body.replace(new RegExp(`"${field}":[^,}]*`), `"${field}":${raw}`));
      expect(response.status, `${field}: ${raw}`).toBe(400);
      expect(await response.json()).toEqual({ error: `Invalid ${field}: must be an amount` });
    }
    expect(await databaseChecksum(server.database.db)).toBe(before);
    expect(await orderRow()).toMatchObject({ status: "pending", paymentStatus: "waiting", actuallyPaid: null });
  });

  it("refuses every amount outside the grammar, in any amount field, with 400 and the database unchanged", async () => {
    await putBack();
    const before = await databaseChecksum(server.database.db);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AMOUNT_FIELDS), notAmount, fc.constantFrom("finished", "partially_paid", "confirming"), async (field, value, status) => {
        const body = { ...gateway.ipnBody(paymentId, status), [field]: value };
        const response = await ipn(body);
        const what = `${status} ${field}: ${JSON.stringify(value)}`;
        expect(response.status, what).toBe(400);
        expect(await response.json(), what).toEqual({ error: `Invalid ${field}: must be an amount` });
      }),
      { seed: SEED, numRuns: REFUSED_RUNS },
    );
    // A refused notification leaves no trace: no payment event, no order change, no message.
    expect(await databaseChecksum(server.database.db)).toBe(before);
  }, 60_000);

  it("accepts every amount in the grammar as text and reads it exactly as sent", async () => {
    const total = fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.option(fc.integer({ min: 1, max: 18 }), { nil: undefined }))
      .map(([zeros, places]) => "0".repeat(zeros) + "25" + (places === undefined ? "" : `.${"0".repeat(places)}`));
    await fc.assert(
      fc.asyncProperty(validDecimal, total, async (paid, priceAmount) => {
        await putBack();
        const body = { ...gateway.ipnBody(paymentId, "confirming"), actually_paid: paid, price_amount: priceAmount, pay_amount: "0.0005" };
        const response = await ipn(body);
        expect(response.status, `${paid} ${priceAmount}: ${await response.clone().text()}`).toBe(200);
        expect(await orderRow()).toMatchObject({ paymentStatus: "confirming", actuallyPaid: paid });
      }),
      { seed: SEED, numRuns: ACCEPTED_RUNS },
    );
  }, 60_000);

  it("accepts JSON numbers, those the gateway writes with an exponent (1.5e-7) included, as the plain decimal they are", async () => {
    await fc.assert(
      fc.asyncProperty(exactNumberText, async (text) => {
        await putBack();
        const value = Number(text);
        const response = await ipn({ ...gateway.ipnBody(paymentId, "confirming"), actually_paid: value });
        expect(response.status, `${text} sent as ${JSON.stringify(value)}`).toBe(200);
        expect((await orderRow()).actuallyPaid, `${text} sent as ${JSON.stringify(value)}`).toBe(canonical(text));
      }),
      { seed: SEED, numRuns: ACCEPTED_RUNS, examples: [["0.0000001"], ["0.00000015"], ["0.0005"], ["0"]] },
    );
  }, 60_000);

  it("still reads a genuine short payment as short, and a full one as paid", async () => {
    await putBack();
    expect((await ipn(gateway.ipnBody(paymentId, "finished", { actually_paid: 0.0002 }))).status).toBe(200);
    expect(await orderRow()).toMatchObject({ status: "pending", paymentStatus: "partially_paid", actuallyPaid: "0.0002" });
    expect((await ipn({ ...gateway.ipnBody(paymentId, "finished"), actually_paid: "0.000500000000000000" })).status).toBe(200);
    expect(await orderRow()).toMatchObject({ status: "processing", paymentStatus: "finished", actuallyPaid: "0.000500000000000000" });
  });
});

describe("NOWPayments' API answers with odd amounts", () => {
  it("makes a status check fail with a clear sentence rather than read an odd amount as money", async () => {
    const fake = await startFakeNowPayments({ apiKey: "key" });
    try {
      const client = createNowPaymentsGateway({ apiUrl: fake.url, getApiKey: async () => "key" });
      const created = await client.createPayment({ orderId: "o-1", pricePence: 2500, coin: "btc", description: "d" });
      expect(created.payAmount).toBe("0.0005");
      for (const odd of ["1e400", " 0.0005", "-0.0005", "0.0005 "]) {
        // The fake answers what it holds: a string where the real API writes a number.
        fake.payments.set(created.paymentId, { ...fake.payments.get(created.paymentId)!, payment_status: "finished", actually_paid: odd as unknown as number });
        await expect(client.getPayment(created.paymentId), odd).rejects.toThrow("The payment service sent an unreadable actually_paid. Please try again.");
      }
      fake.setStatus(created.paymentId, "finished", { actually_paid: 1.5e-7 });
      expect((await client.getPayment(created.paymentId)).actuallyPaid).toBe("0.00000015");
    } finally {
      await fake.close();
    }
  });
});

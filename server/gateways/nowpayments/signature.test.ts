import { describe, expect, it } from "vitest";
import { signIpn } from "../../../test-support/sign-ipn";
import { decimalShortfall } from "../../shop/common";
import { ipnSignedForms, verifyIpnSignature } from "./signature";

describe("IPN signature", () => {
  const secret = "s3cret";
  const body = { payment_status: "finished", payment_id: 123, fee: { serviceFee: 0, currency: "btc", depositFee: 0.1 }, order_id: "o" };

  it("accepts NOWPayments' signature whatever order the keys arrive in, nested ones included", () => {
    const signature = signIpn(body, secret);
    expect(verifyIpnSignature(body, signature, secret)).toBe(true);
    const reordered = { order_id: "o", fee: { depositFee: 0.1, currency: "btc", serviceFee: 0 }, payment_id: 123, payment_status: "finished" };
    expect(verifyIpnSignature(reordered, signature, secret)).toBe(true);
    expect(verifyIpnSignature(body, signature.toUpperCase(), secret)).toBe(true);
  });

  it("refuses a changed body, another secret, a truncated or missing signature", () => {
    const signature = signIpn(body, secret);
    expect(verifyIpnSignature({ ...body, fee: { ...body.fee, depositFee: 0.2 } }, signature, secret)).toBe(false);
    expect(verifyIpnSignature(body, signature, "other")).toBe(false);
    expect(verifyIpnSignature(body, signature.slice(0, 64), secret)).toBe(false);
    expect(verifyIpnSignature(body, undefined, secret)).toBe(false);
    expect(verifyIpnSignature(body, "", secret)).toBe(false);
  });
});

describe("IPN signature over bodies with non-ASCII text", () => {
  const secret = "s3cret";
  const text = "Café crème 1/2 kg";
  // Every string field carries non-ASCII and "/", nested ones and an astral character included.
  const body = {
    payment_id: 5077125051,
    payment_status: `finished ${text}`,
    pay_address: `addr/${text}`,
    price_amount: 15,
    price_currency: `gbp ${text}`,
    pay_amount: 0.0003,
    actually_paid: 0.0003,
    pay_currency: `btc ${text}`,
    order_id: `id ${text}`,
    order_description: `${text} — «spécial» 🍵`,
    purchase_id: `p ${text}`,
    outcome_currency: `btc ${text}`,
    created_at: "2026-11-22T10:00:00.000Z",
    fee: { currency: `btc ${text}`, depositFee: 0, serviceFee: 0 },
  };

  it.each(["node", "php"] as const)("accepts NOWPayments' %s-style signature", (style) => {
    expect(verifyIpnSignature(body, signIpn(body, secret, style), secret)).toBe(true);
  });

  it("signs four spellings of one body and refuses when any character was changed", () => {
    expect(ipnSignedForms(body)).toHaveLength(4);
    expect(ipnSignedForms(body)[1]).toContain("Caf\\u00e9 cr\\u00e8me 1/2 kg");
    expect(ipnSignedForms(body)[1]).toContain("\\ud83c\\udf75");
    expect(ipnSignedForms(body)[3]).toContain("Caf\\u00e9 cr\\u00e8me 1\\/2 kg");
    expect(ipnSignedForms({ payment_id: 1, order_id: "abc" })).toHaveLength(1);
    for (const style of ["node", "php"] as const) {
      const signature = signIpn(body, secret, style);
      expect(verifyIpnSignature({ ...body, order_description: "Cafe creme 1/2 kg" }, signature, secret)).toBe(false);
      expect(verifyIpnSignature(body, signature, "another secret")).toBe(false);
    }
  });
});

describe("partial payment shortfall", () => {
  it("subtracts crypto amounts exactly", () => {
    expect(decimalShortfall("0.0005", "0.0002")).toBe("0.0003");
    expect(decimalShortfall("0.3", "0.1")).toBe("0.2"); // 0.3 - 0.1 is 0.19999999999999998 in floating point
    expect(decimalShortfall("1.123456789012", "0.000000000002")).toBe("1.12345678901");
    expect(decimalShortfall("2", null)).toBe("2");
    expect(decimalShortfall("0.5", "0.5")).toBeNull();
    expect(decimalShortfall("0.5", "0.7")).toBeNull();
    expect(decimalShortfall(null, "0.1")).toBeNull();
  });
});

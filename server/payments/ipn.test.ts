import { describe, expect, it } from "vitest";
import { signIpn } from "../testing/sign-ipn";
import { decimalShortfall, verifyIpnSignature } from "./ipn";

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

import crypto from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { btcpaySignature, verifyBtcpaySignature } from "./signature";
import { shopStatusOf } from "./client";

// BTCPay-Sig: "sha256=" + hex HMAC-SHA256 of the raw body with the webhook secret (issue 24).

describe("BTCPay webhook signature", () => {
  it("matches an HMAC-SHA256 computed independently, and verifies it", () => {
    const raw = '{"deliveryId":"d1","invoiceId":"inv1","type":"InvoiceSettled"}';
    const expected = "sha256=" + crypto.createHmac("sha256", "s3cret").update(raw).digest("hex");
    expect(btcpaySignature(raw, "s3cret")).toBe(expected);
    expect(verifyBtcpaySignature(raw, expected, "s3cret")).toBe(true);
    expect(verifyBtcpaySignature(raw, expected.toUpperCase().replace("SHA256=", "sha256="), "s3cret")).toBe(true);
  });

  it("refuses any other body, secret or signature (fast-check)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), fc.nat(), (raw, secret, other, position) => {
        const signature = btcpaySignature(raw, secret);
        expect(verifyBtcpaySignature(raw, signature, secret)).toBe(true);
        if (other !== raw) expect(verifyBtcpaySignature(other, signature, secret)).toBe(false);
        if (other !== secret && other !== "") expect(verifyBtcpaySignature(raw, signature, other)).toBe(false);
        // One hex digit changed anywhere.
        const index = 7 + (position % 64);
        const flipped = signature.slice(0, index) + (signature[index] === "0" ? "1" : "0") + signature.slice(index + 1);
        expect(verifyBtcpaySignature(raw, flipped, secret)).toBe(false);
      }),
    );
  });

  it("refuses missing, empty, truncated, other-algorithm and non-hex signatures", () => {
    const raw = "{}";
    const good = btcpaySignature(raw, "k");
    for (const bad of [undefined, "", "sha256=", good.slice(0, -2), good.replace("sha256=", "sha512="), good.replace("sha256=", ""), `${good}00`, "sha256=" + "zz".repeat(32)]) {
      expect(verifyBtcpaySignature(raw, bad, "k")).toBe(false);
    }
  });
});

describe("BTCPay invoice statuses in the shop's words", () => {
  it("maps each status and additional status", () => {
    expect(shopStatusOf({ status: "New", additionalStatus: "None" }, "0")).toEqual({ status: "waiting", ownerDecides: false });
    expect(shopStatusOf({ status: "New", additionalStatus: "PaidPartial" }, "0.0001")).toEqual({ status: "partially_paid", ownerDecides: false });
    expect(shopStatusOf({ status: "Processing", additionalStatus: "None" }, "0.0003")).toEqual({ status: "confirming", ownerDecides: false });
    expect(shopStatusOf({ status: "Settled", additionalStatus: "PaidOver" }, "0.0004")).toEqual({ status: "finished", ownerDecides: false });
    expect(shopStatusOf({ status: "Settled", additionalStatus: "Marked" }, "0")).toEqual({ status: "finished", ownerDecides: false });
    expect(shopStatusOf({ status: "Expired", additionalStatus: "None" }, "0")).toEqual({ status: "expired", ownerDecides: false });
    expect(shopStatusOf({ status: "Expired", additionalStatus: "PaidPartial" }, "0.0001")).toEqual({ status: "partially_paid", ownerDecides: false });
    expect(shopStatusOf({ status: "Expired", additionalStatus: "PaidLate" }, "0.0003")).toEqual({ status: "partially_paid", ownerDecides: true });
    expect(shopStatusOf({ status: "Invalid", additionalStatus: "Invalid" }, "0")).toEqual({ status: "failed", ownerDecides: false });
    expect(() => shopStatusOf({ status: "Bogus" }, null)).toThrow(/could not read/);
  });
});

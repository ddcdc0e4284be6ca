import { describe, expect, it } from "vitest";
import { decimalToPence, isPositiveDecimal, isShortPayment, percentToBasisPoints } from "./crypto-amounts";

describe("crypto amounts on text", () => {
  it("reads money as exact pence, refusing what is not a whole penny", () => {
    expect(decimalToPence("15")).toBe(1500);
    expect(decimalToPence("15.00")).toBe(1500);
    expect(decimalToPence("12.5")).toBe(1250);
    expect(decimalToPence("0.01")).toBe(1);
    expect(decimalToPence("15.000000")).toBe(1500);
    expect(decimalToPence("15.001")).toBeNull();
    expect(decimalToPence("-15")).toBeNull();
    expect(decimalToPence("1e3")).toBeNull();
    expect(decimalToPence(null)).toBeNull();
  });

  it("reads the tolerance in hundredths of a percent", () => {
    expect(percentToBasisPoints("1.00")).toBe(100);
    expect(percentToBasisPoints("0")).toBe(0);
    expect(percentToBasisPoints("15")).toBe(1500);
    expect(percentToBasisPoints(2.5)).toBe(250);
    expect(percentToBasisPoints("abc")).toBeNull();
  });

  it("calls a payment short only beyond the tolerance, exactly, with up to 18 places", () => {
    expect(isShortPayment("0.0003", "0.00003", 100)).toBe(true); // 10%
    expect(isShortPayment("0.0003", "0.000297", 100)).toBe(false); // exactly 99%
    expect(isShortPayment("0.0003", "0.000296999999999999", 100)).toBe(true); // a hair below
    expect(isShortPayment("0.0003", "0.0003", 0)).toBe(false);
    expect(isShortPayment("0.0003", "0.000299999999999999", 0)).toBe(true);
    expect(isShortPayment("0.0003", "0.0004", 0)).toBe(false); // overpaid
    expect(isShortPayment("0.0003", null, 100)).toBe(true); // nothing reported received
    expect(isShortPayment(null, "0.0001", 100)).toBe(false); // nothing to compare with
    expect(isShortPayment("1", "0.85", 1500)).toBe(false); // 15%: the most Bot Settings allows
  });

  it("knows an amount above zero", () => {
    expect(isPositiveDecimal("0.0001")).toBe(true);
    expect(isPositiveDecimal("0")).toBe(false);
    expect(isPositiveDecimal("0.000")).toBe(false);
    expect(isPositiveDecimal(null)).toBe(false);
    expect(isPositiveDecimal("3e-7")).toBe(false);
  });
});

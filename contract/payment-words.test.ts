import { describe, expect, it } from "vitest";
import { paymentStatusWords } from "./payment-words";

// NOWPayments' statuses as the owner reads them (issue 22 item 7), wherever an order's payment shows.
describe("paymentStatusWords", () => {
  it.each([
    ["waiting", "Waiting for payment"],
    ["confirming", "Payment seen, confirming"],
    ["confirmed", "Paid"],
    ["sending", "Paid"],
    ["finished", "Paid"],
    ["failed", "Payment failed"],
    ["refunded", "Refunded"],
    ["expired", "Expired"],
    ["some_new_status", "Some new status"],
  ])("%s reads %s", (paymentStatus, words) => {
    expect(paymentStatusWords({ paymentStatus })).toBe(words);
  });

  it("says how much of a short payment is still due, in the coin, exactly", () => {
    expect(paymentStatusWords({ paymentStatus: "partially_paid", payAmount: "0.001", actuallyPaid: "0.0001", payCurrency: "btc" })).toBe(
      "Underpaid by 0.0009 BTC",
    );
    // 0.3 - 0.1 in floating point is 0.19999999999999998.
    expect(paymentStatusWords({ paymentStatus: "partially_paid", payAmount: "0.3", actuallyPaid: "0.1", paymentMethod: "ltc" })).toBe("Underpaid by 0.2 LTC");
    expect(paymentStatusWords({ paymentStatus: "partially_paid", shortfall: "1.25", payCurrency: "xmr", payAmount: "9", actuallyPaid: "1" })).toBe(
      "Underpaid by 1.25 XMR",
    );
    expect(paymentStatusWords({ paymentStatus: "partially_paid", payAmount: null, actuallyPaid: "0.1" })).toBe("Underpaid");
    expect(paymentStatusWords({ paymentStatus: "partially_paid", payAmount: "1e3", actuallyPaid: "0.1" })).toBe("Underpaid");
  });
});

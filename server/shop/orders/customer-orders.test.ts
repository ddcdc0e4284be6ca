import { describe, expect, it } from "vitest";
import { describeOrderStatus, paymentDeadline, paymentUri, type CustomerOrder } from "./customer-orders";

const order = (overrides: Partial<CustomerOrder>): CustomerOrder => ({
  id: "0f0e0d0c-0000-4000-8000-000000000001",
  createdAt: new Date("2025-03-01T12:00:00Z"),
  totalAmount: "30.00",
  status: "pending",
  paymentStatus: "waiting",
  paymentId: "5000000001",
  payAddress: "btc-address",
  payAmount: "0.0006",
  payCurrency: "btc",
  paymentMethod: "btc",
  actuallyPaid: null,
  paymentExpiresAt: null,
  adminFlag: null,
  trackingNumber: null,
  carrier: null,
  paymentCheckoutUrl: null,
  closedBy: null,
  ...overrides,
});

describe("an order's status in the customer's words", () => {
  it("words each status from the payment's", () => {
    const cases: [Partial<CustomerOrder>, string][] = [
      [{}, "Awaiting payment"],
      [{ paymentStatus: "confirming" }, "Payment received, confirming"],
      [{ paymentStatus: "partially_paid", actuallyPaid: "0.00015" }, "Underpaid: 0.00045 BTC still due"],
      [{ status: "processing", paymentStatus: "finished" }, "Paid, being prepared for dispatch"],
      [{ status: "dispatched", paymentStatus: "finished" }, "Dispatched"],
      [{ status: "completed", paymentStatus: "finished" }, "Completed"],
      [{ status: "failed", paymentStatus: "expired" }, "Expired: no payment arrived"],
      [{ status: "failed", paymentStatus: "waiting", closedBy: "expiry" }, "Expired: no payment arrived"],
      [{ status: "failed", paymentStatus: "refunded", actuallyPaid: "0.0006" }, "Refunded"],
      [{ status: "failed", paymentStatus: "waiting", closedBy: "owner" }, "Cancelled by the shop"],
      [{ status: "failed", paymentStatus: "partially_paid", actuallyPaid: "0.0001", adminFlag: "refund_due", closedBy: "owner" }, "Cancelled by the shop: your payment will be refunded"],
      [{ status: "failed", paymentStatus: "finished", actuallyPaid: "0.0006" }, "Cancelled: your payment arrived too late, please contact support"],
      [{ status: "failed", paymentStatus: "failed", paymentId: null }, "Cancelled: the payment could not be created"],
      [{ status: "failed", paymentStatus: "failed" }, "Cancelled: the payment failed"],
    ];
    for (const [overrides, words] of cases) expect(describeOrderStatus(order(overrides)), JSON.stringify(overrides)).toBe(words);
  });

  it("gives the deadline the customer was told: the gateway's, else created + 2 hours", () => {
    expect(paymentDeadline(order({ paymentExpiresAt: new Date("2025-03-02T12:00:00Z") })).toISOString()).toBe("2025-03-02T12:00:00.000Z");
    expect(paymentDeadline(order({})).toISOString()).toBe("2025-03-01T14:00:00.000Z");
  });

  it("writes the payment URI a wallet understands for each coin", () => {
    expect(paymentUri("BTC", "bc1qaddress", "0.0006")).toBe("bitcoin:bc1qaddress?amount=0.0006");
    expect(paymentUri("ltc", "ltc1qaddress", "0.5")).toBe("litecoin:ltc1qaddress?amount=0.5");
    expect(paymentUri("XMR", "4Address", "0.25")).toBe("monero:4Address?tx_amount=0.25");
    expect(paymentUri("DOGE", "D123", "1")).toBeNull();
  });
});

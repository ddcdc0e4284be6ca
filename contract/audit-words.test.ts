import { describe, expect, it } from "vitest";
import { readableAuditSummary, shortenIds } from "./audit-words";

// The Activity log reads in words (issue 22 item 7), the entries written before it too: those hold
// the write's body in short (`key: <JSON>`) and whole ids.
describe("readableAuditSummary", () => {
  it("keeps a sentence written in words, with whole ids shortened", () => {
    expect(readableAuditSummary('Product "Acceptance Tee": price £10.00 → £8.00')).toBe('Product "Acceptance Tee": price £10.00 → £8.00');
    expect(readableAuditSummary("3 expired orders failed: 1b4e28ba-2fa1-41d2-883f-0016d3cca427, 2c4e28ba-2fa1-41d2-883f-0016d3cca427")).toBe(
      "3 expired orders failed: #1b4e28ba, #2c4e28ba",
    );
    expect(readableAuditSummary("A reply of 25 characters about order 1b4e28ba-2fa1-41d2-883f-0016d3cca427")).toBe(
      "A reply of 25 characters about order #1b4e28ba",
    );
    expect(readableAuditSummary("")).toBe("");
  });

  it.each([
    ['name: "Sencha", price: "4.99"', 'Name "Sencha", price £4.99'],
    ["isActive: false", "Status inactive"],
    ["underpaymentTolerancePercent: 1.5", "Underpayment tolerance 1.5%"],
    [
      'botName: "Renamed", botToken: [hidden], nowpaymentsIpnSecret: [hidden], acceptedCurrencies: ["BTC","LTC"]',
      'Bot name "Renamed", bot token changed, IPN secret key changed, accepted cryptocurrencies BTC, LTC',
    ],
    ['status: "dispatched", trackingNumber: "AB123456789GB"', 'Status "dispatched", tracking number "AB123456789GB"'],
    ['description: "a, b: c, d", stock: 5', 'Description "a, b: c, d", stock 5'],
    ['name: "say \\"hi\\", ok: 1", price: 3', 'Name "say "hi", ok: 1", price £3.00'],
    ['bulkPricing: [{"minQuantity":2,"price":4.5}], faqContent: "x"', 'Bulk pricing 1 entry, FAQ content "x"'],
    ['categoryId: "1b4e28ba-2fa1-41d2-883f-0016d3cca427"', 'Category "#1b4e28ba"'],
    // Cut short when it was stored: shown as it is.
    ['name: "An extremely long name that was cut…', 'Name "An extremely long name that was cut…'],
  ])("reads the old summary %s as words", (summary, words) => {
    expect(readableAuditSummary(summary)).toBe(words);
  });

  it("shortens only whole ids", () => {
    expect(shortenIds("order 1b4e28ba and 1b4e28ba-2fa1-41d2-883f-0016d3cca427x")).toBe("order 1b4e28ba and 1b4e28ba-2fa1-41d2-883f-0016d3cca427x");
  });
});

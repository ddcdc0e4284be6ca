import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AttemptStorage, createOrderIds } from "./order-ids";

// The Mini App's order ids (order-ids.ts): one id per order while its fate is unknown, so a retry
// after a lost answer names the order the first attempt may have made. The checkout's use of it, and
// the server's one order per id, are shown in e2e/storefront.spec.ts and server/http/routes/storefront.test.ts.

/** The n-th id the tests' id source gives: UUID-shaped, as the server wants them (and the stored attempt is checked for). */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function idSource() {
  let next = 0;
  return () => id(++next);
}

/** Order ids in the page's memory alone. */
function ids() {
  return createOrderIds({ newId: idSource(), storage: null });
}

/** A stand-in for this tab's sessionStorage: what a reload keeps. */
function memoryStorage(): AttemptStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
}

describe("the storefront's order ids", () => {
  it("keeps the id of an order sent without an answer, and says the next attempt is a retry", () => {
    const orderIds = ids();
    const first = orderIds.attempt("cart-a|£10.00");
    expect(first).toEqual({ id: id(1), retry: false });
    // Not sent yet (the address was being sealed): asking again is no retry.
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(1), retry: false });
    orderIds.sending(first.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(1), retry: true });
    // Nor does another answer-less attempt change it.
    orderIds.sending(first.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(1), retry: true });
  });

  it("chooses a new id once the shop answered for the old one, placed or refused", () => {
    const orderIds = ids();
    const placed = orderIds.attempt("cart-a|£10.00");
    orderIds.sending(placed.id);
    orderIds.settled(placed.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(2), retry: false });
  });

  it("chooses a new id when the cart or the total changes", () => {
    const orderIds = ids();
    orderIds.sending(orderIds.attempt("cart-a|£10.00").id);
    expect(orderIds.attempt("cart-b|£10.00")).toEqual({ id: id(2), retry: false });
    orderIds.sending(id(2));
    expect(orderIds.attempt("cart-b|£12.00")).toEqual({ id: id(3), retry: false });
    // Back to the first cart: its id was let go, so this is another order.
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(4), retry: false });
  });

  it("ignores news of an id it no longer keeps", () => {
    const orderIds = ids();
    const old = orderIds.attempt("cart-a|£10.00");
    orderIds.sending(old.id);
    const current = orderIds.attempt("cart-b|£10.00");
    orderIds.sending(current.id);
    // The old attempt's late answer does not let the current one go.
    orderIds.settled(old.id);
    expect(orderIds.attempt("cart-b|£10.00")).toEqual({ id: current.id, retry: true });
  });

  it("chooses random UUIDs by default", () => {
    const orderIds = createOrderIds({ storage: null });
    const { id } = orderIds.attempt("cart-a|£10.00");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    orderIds.settled(id);
    expect(orderIds.attempt("cart-a|£10.00").id).not.toBe(id);
  });

  it("keeps an attempt sent without an answer through a reload of the tab, and lets it go once answered", () => {
    const storage = memoryStorage();
    const beforeReload = createOrderIds({ newId: idSource(), storage });
    const sent = beforeReload.attempt("cart-a|£10.00");
    beforeReload.sending(sent.id);

    // The page reloads: a new page, the same tab.
    const afterReload = createOrderIds({ newId: () => id(99), storage });
    expect(afterReload.attempt("cart-a|£10.00")).toEqual({ id: sent.id, retry: true });
    afterReload.settled(sent.id);
    expect(storage.items.size).toBe(0);
    expect(createOrderIds({ newId: () => id(100), storage }).attempt("cart-a|£10.00")).toEqual({ id: id(100), retry: false });
  });

  it("keeps an attempt not yet sent as no retry after a reload, and a changed order still gets a new id", () => {
    const storage = memoryStorage();
    const first = createOrderIds({ newId: idSource(), storage }).attempt("cart-a|£10.00");
    const reloaded = createOrderIds({ newId: () => id(50), storage });
    expect(reloaded.attempt("cart-a|£10.00")).toEqual({ id: first.id, retry: false });
    expect(reloaded.attempt("cart-b|£10.00")).toEqual({ id: id(50), retry: false });
  });

  it("ignores a stored attempt it did not write: bad JSON, other shapes, ids the server would refuse", () => {
    const hostile = [
      "",
      "{",
      "null",
      "42",
      '"a string"',
      "[]",
      '{"id":null,"order":"cart-a|£10.00","sent":true}',
      '{"id":"id-1","order":"cart-a|£10.00","sent":true}',
      `{"id":"${id(1)}' OR 1=1","order":"cart-a|£10.00","sent":true}`,
      `{"id":"${id(1)}","order":["cart-a"],"sent":true}`,
      `{"id":"${id(1)}","order":"cart-a|£10.00","sent":"yes"}`,
      `{"__proto__":{"id":"${id(1)}","order":"cart-a|£10.00","sent":true}}`,
    ];
    for (const stored of hostile) {
      const storage = memoryStorage();
      storage.items.set("storefront-order-attempt", stored);
      expect(createOrderIds({ newId: () => id(7), storage }).attempt("cart-a|£10.00"), stored).toEqual({ id: id(7), retry: false });
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ id: fc.string(), order: fc.string(), sent: fc.anything() })), (stored) => {
        const storage = memoryStorage();
        storage.items.set("storefront-order-attempt", typeof stored === "string" ? stored : JSON.stringify(stored));
        const attempt = createOrderIds({ newId: () => id(7), storage }).attempt("cart-a|£10.00");
        expect(attempt).toEqual({ id: id(7), retry: false });
      }),
    );
  });

  it("works on when the tab's storage refuses to be read or written", () => {
    const refusing: AttemptStorage = {
      getItem: () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      },
      removeItem: () => {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    };
    const orderIds = createOrderIds({ newId: idSource(), storage: refusing });
    const sent = orderIds.attempt("cart-a|£10.00");
    orderIds.sending(sent.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(1), retry: true });
    orderIds.settled(sent.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: id(2), retry: false });
  });
});

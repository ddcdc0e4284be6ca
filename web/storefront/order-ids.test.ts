import { describe, expect, it } from "vitest";
import { createOrderIds } from "./order-ids";

// The Mini App's order ids (order-ids.ts): one id per order while its fate is unknown, so a retry
// after a lost answer names the order the first attempt may have made. The checkout's use of it, and
// the server's one order per id, are shown in e2e/storefront.spec.ts and server/http/routes/storefront.test.ts.

function ids() {
  let next = 0;
  return createOrderIds(() => `id-${++next}`);
}

describe("the storefront's order ids", () => {
  it("keeps the id of an order sent without an answer, and says the next attempt is a retry", () => {
    const orderIds = ids();
    const first = orderIds.attempt("cart-a|£10.00");
    expect(first).toEqual({ id: "id-1", retry: false });
    // Not sent yet (the address was being sealed): asking again is no retry.
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: "id-1", retry: false });
    orderIds.sending(first.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: "id-1", retry: true });
    // Nor does another answer-less attempt change it.
    orderIds.sending(first.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: "id-1", retry: true });
  });

  it("chooses a new id once the shop answered for the old one, placed or refused", () => {
    const orderIds = ids();
    const placed = orderIds.attempt("cart-a|£10.00");
    orderIds.sending(placed.id);
    orderIds.settled(placed.id);
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: "id-2", retry: false });
  });

  it("chooses a new id when the cart or the total changes", () => {
    const orderIds = ids();
    orderIds.sending(orderIds.attempt("cart-a|£10.00").id);
    expect(orderIds.attempt("cart-b|£10.00")).toEqual({ id: "id-2", retry: false });
    orderIds.sending("id-2");
    expect(orderIds.attempt("cart-b|£12.00")).toEqual({ id: "id-3", retry: false });
    // Back to the first cart: its id was let go, so this is another order.
    expect(orderIds.attempt("cart-a|£10.00")).toEqual({ id: "id-4", retry: false });
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
    const orderIds = createOrderIds();
    const { id } = orderIds.attempt("cart-a|£10.00");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    orderIds.settled(id);
    expect(orderIds.attempt("cart-a|£10.00").id).not.toBe(id);
  });
});

import type { FastifyInstance } from "fastify";
import { accountCan } from "./security";

// Shipping addresses only for the roles with "orders.addresses" (issue 25, contract/team.ts): the
// support role reads orders and their status, never where a customer lives. Orders reach answers
// through several routes (the order list and search, an order changed by an action, a customer's
// page), so the addresses are taken out in one place, just before any answer is serialized, rather
// than in each route: a route added later that answers an order cannot forget it.

/** The Order fields that hold an address (contract/orders.ts), clear or sealed to the owner's key. */
const ADDRESS_FIELDS = new Set(["shippingAddress", "sealedShippingAddress"]);

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * A copy of the answer with every address field set to null (the answer schema's "no address"),
 * however deep it sits. Copied, not changed in place: the objects may be shared with a cache.
 */
export function withoutAddresses(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAddresses);
  if (value === null || typeof value !== "object" || !isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, ADDRESS_FIELDS.has(key) ? null : withoutAddresses(field)]));
}

export function registerAddressWithholding(app: FastifyInstance) {
  app.addHook("preSerialization", async (request, _reply, payload) => {
    // Only signed-in answers can hold an order; the open routes (login, health, images) hold none.
    if (!request.signedIn || accountCan(request, "orders.addresses")) return payload;
    return withoutAddresses(payload);
  });
}

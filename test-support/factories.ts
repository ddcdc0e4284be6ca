import type { DbOrTx } from "../server/db/client";
import crypto from "node:crypto";
import { inArray } from "drizzle-orm";
import { botCustomers, customerMessages, orderItems, orders, products, type ShippingAddress } from "../server/db/schema";
import { blockCustomer, optOutOfBroadcasts, recordBotStart } from "../server/shop/customers";
import { ERASED_ADDRESS, protectAddress, protectMessage } from "../server/shop/vaults";
import { reserveStock } from "../server/shop/orders";

// Rows the API cannot create (orders come from the bot, customer messages from Telegram), inserted
// directly. Every field can be overridden; the defaults make a plausible row.

export type ProductRow = typeof products.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type CustomerMessageRow = typeof customerMessages.$inferSelect;

let sequence = 0;
const next = () => ++sequence;

export async function insertProduct(
  db: DbOrTx,
  overrides: Partial<typeof products.$inferInsert> = {},
): Promise<ProductRow> {
  const n = next();
  const [row] = await db
    .insert(products)
    .values({ name: `Product ${n}`, description: `Description of product ${n}`, price: "9.99", stock: 10, ...overrides })
    .returning();
  return row!;
}

export type OrderLine = {
  product: Pick<ProductRow, "id" | "name" | "price">;
  /** The variant bought; the product's default variant (its own id) when left out. */
  variantId?: string;
  variantLabel?: string | null;
  sku?: string | null;
  quantity?: number;
  /** Unit price as a decimal string; defaults to the product's price. */
  price?: string;
};

/**
 * An order with its items. totalAmount defaults to the sum of the lines. `reserveStock: true`
 * takes the quantities off the products' stock, as a real checkout does.
 */
export async function insertOrder(
  db: DbOrTx,
  options: Partial<typeof orders.$inferInsert> & { items?: OrderLine[]; reserveStock?: boolean; shippingAddress?: ShippingAddress | null } = {},
): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const { items: lines = [], reserveStock: reserve = false, shippingAddress, ...overrides } = options;
  const pence = lines.reduce(
    (sum, line) => sum + Math.round(Number(line.price ?? line.product.price) * 100) * (line.quantity ?? 1),
    0,
  );
  const n = next();
  const id = overrides.id ?? crypto.randomUUID();
  const address =
    shippingAddress === undefined
      ? { name: `Customer ${n}`, streetAddress: `${n} High Street, London`, postcode: "SW1A 1AA", contact: null }
      : shippingAddress;
  const [order] = await db
    .insert(orders)
    .values({
      id,
      ...(address ? await protectAddress(db, id, address) : ERASED_ADDRESS),
      telegramUserId: `10000${n}`,
      telegramUsername: `customer${n}`,
      totalAmount: (pence / 100).toFixed(2),
      currency: "GBP",
      paymentMethod: "btc",
      ...overrides,
    })
    .returning();
  if (reserve) {
    await reserveStock(
      db,
      lines.map((line) => ({
        productId: line.product.id,
        variantId: line.variantId ?? line.product.id,
        productName: line.product.name,
        quantity: line.quantity ?? 1,
      })),
    );
  }
  const items =
    lines.length === 0
      ? []
      : await db
          .insert(orderItems)
          .values(
            lines.map((line) => ({
              orderId: order!.id,
              productId: line.product.id,
              productName: line.product.name,
              variantId: line.variantId ?? line.product.id,
              variantLabel: line.variantLabel ?? null,
              sku: line.sku ?? null,
              quantity: line.quantity ?? 1,
              price: line.price ?? line.product.price,
              createdAt: order!.createdAt,
            })),
          )
          .returning();
  return { order: order!, items };
}

export async function insertCustomerMessage(
  db: DbOrTx,
  overrides: Partial<typeof customerMessages.$inferInsert> = {},
): Promise<CustomerMessageRow> {
  const n = next();
  const { message: text = `Hello, a question about my order (${n})`, ...rest } = overrides;
  const id = rest.id ?? crypto.randomUUID();
  const [row] = await db
    .insert(customerMessages)
    .values({
      telegramUserId: `10000${n}`,
      telegramUsername: `customer${n}`,
      isFromCustomer: true,
      isRead: false,
      ...rest,
      id,
      ...(await protectMessage(db, id, text)),
    })
    .returning();
  // The row as stored, its text in clear for the test to compare with.
  return { ...row!, message: text };
}

/** Who a broadcast's audience is drawn from: Telegram user ids, each also in `started`. */
export type BotCustomersSeed = {
  /** Sent /start: everyone the "all" audience names. */
  started: string[];
  /** Then sent /stop: no broadcasts until the next /start. */
  optedOut?: string[];
  /** Then blocked the bot (Telegram answered 403): later broadcasts skip them. */
  unreachable?: string[];
  /** Blocked by the owner. */
  blocked?: string[];
};

/**
 * Customers who started the bot, some of whom a broadcast then skips: the bot's own calls for
 * /start, /stop and the owner's block, and Telegram's 403 recorded as the sender records it.
 */
export async function seedBotCustomers(db: DbOrTx, seed: BotCustomersSeed, now: Date = new Date()): Promise<void> {
  const { started, optedOut = [], unreachable = [], blocked = [] } = seed;
  const stray = [...optedOut, ...unreachable, ...blocked].filter((id) => !started.includes(id));
  if (stray.length > 0) throw new Error(`seedBotCustomers: not in started: ${stray.join(", ")}`);
  for (const id of started) await recordBotStart(db, id, null, now);
  for (const id of optedOut) await optOutOfBroadcasts(db, id, null, now);
  if (unreachable.length > 0) await db.update(botCustomers).set({ unreachableAt: now }).where(inArray(botCustomers.telegramUserId, unreachable));
  for (const id of blocked) await blockCustomer(db, id, now);
}

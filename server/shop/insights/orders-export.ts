import { asc, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { orderItems, type orders } from "../../db/schema";
import { type OrderFilters, filterConditions, orderPageQuery } from "../orders";
import { revealAddresses, type RevealedAddress } from "../vaults";
import { encodeCursor } from "../common";
import { csvLine } from "../../../contract/csv";
import { itemDisplayName } from "../../../contract";

// The orders as a spreadsheet (issue 13, item 5): one CSV line per order item, for the filters of the
// Orders screen (order-list.ts answers them, so the file holds exactly the orders the list shows).
// Read a page of orders at a time by keyset, so an export of 100,000 orders never holds them all.

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
type ShownAddress = (RevealedAddress & { kind: "clear" })["address"] | null;

/** Orders read per query: a few hundred kilobytes of CSV per page. */
export const EXPORT_PAGE_SIZE = 500;

/** Excel opens a UTF-8 file as its local code page (£ as Â£) unless the file starts with this mark. */
export const UTF8_BOM = "\uFEFF";

export const ORDER_EXPORT_COLUMNS = [
  "Order ID",
  "Date",
  "Customer",
  "Telegram user ID",
  "Address name",
  "Street address",
  "Postcode",
  "Contact",
  "Postage",
  "Postage price (GBP)",
  "Item",
  "Quantity",
  "Unit price (GBP)",
  "Order total (GBP)",
  "Status",
  "Payment status",
  "Carrier",
  "Tracking number",
  // Owner-only mode (docs/decisions/0025): the address as sealed to the owner's key, which the server
  // cannot open. Exported from a browser that unlocked, the address columns are filled in instead.
  "Sealed address",
  // Coupons (issue 23), appended so the columns before keep their places: the code and what it took
  // off the items; "Order total" is already net of it.
  "Coupon",
  "Discount (GBP)",
  // Variants (issue 23), appended likewise: the SKU the item was bought with ("Item" names its variant).
  "SKU",
] as const;

// The cells are written as contract/csv.ts has it (the browser rewrites the file with it after unlocking).
export { csvCell, csvLine, neutraliseCell } from "../../../contract/csv";

/** "Ann Smith (@ann)": the name first, so the usual cell does not start with @ and need neutralising. */
function customerOf(order: OrderRow, address: ShownAddress): string {
  const name = address?.name ?? null;
  const username = order.telegramUsername ? `@${order.telegramUsername}` : null;
  if (name && username) return `${name} (${username})`;
  return name ?? username ?? "";
}

/** The lines of one order: one per item, or one with empty item cells for an order without items. */
function orderLines(order: OrderRow, revealed: RevealedAddress, items: OrderItemRow[]): string {
  const address: ShownAddress = revealed.kind === "clear" ? revealed.address : null;
  const orderCells = (item: OrderItemRow | null) => [
    order.id,
    order.createdAt.toISOString(),
    customerOf(order, address),
    order.telegramUserId,
    address?.name,
    address?.streetAddress,
    address?.postcode,
    address?.contact,
    order.postageName,
    order.postagePrice,
    // "Acceptance Tee (M / Black)": the name and variant label the order kept (issue 23).
    item ? itemDisplayName(item.productName ?? item.productId, item.variantLabel) : null,
    item?.quantity,
    item?.price,
    order.totalAmount,
    order.status,
    order.paymentStatus,
    order.carrier,
    order.trackingNumber,
    revealed.kind === "sealed" ? revealed.sealed : null,
    order.couponCode,
    order.discountAmount,
    item?.sku,
  ];
  return (items.length === 0 ? [null] : items).map((item) => csvLine(orderCells(item))).join("");
}

/** The items of a page of orders, in one query, by order. */
async function itemsByOrder(db: DbOrTx, orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, orderIds))
    .orderBy(asc(orderItems.createdAt), asc(orderItems.id));
  for (const row of rows) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push(row);
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

/**
 * The CSV text in pieces: the byte order mark and header, then one piece per page of orders. Each
 * page is read when the previous one has been taken, so a slow download reads the database slowly
 * too. Orders added while it runs appear or not, but none repeats or goes missing (keyset pages).
 */
export async function* exportOrdersCsv(db: DbOrTx, filters: OrderFilters, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(ORDER_EXPORT_COLUMNS);
  let cursor: string | undefined;
  const conditions = await filterConditions(db, filters);
  for (;;) {
    const rows = await orderPageQuery(db, { ...filters, limit: pageSize, cursor }, conditions);
    const page = rows.slice(0, pageSize);
    // Test orders (Bot Preview's simulator, docs/decisions/0023) are no business: the spreadsheet leaves them out.
    const real = page.filter((row) => !row.order.isTest);
    const items = await itemsByOrder(
      db,
      real.map((row) => row.order.id),
    );
    const addresses = await revealAddresses(
      db,
      real.map((row) => row.order),
    );
    if (real.length > 0) yield real.map((row, index) => orderLines(row.order, addresses[index]!, items.get(row.order.id) ?? [])).join("");
    const last = page.at(-1);
    if (rows.length <= pageSize || !last) return;
    cursor = encodeCursor(filters.sort, [last.key0, last.key1]);
  }
}

/** The download's name: the day it was made, e.g. orders-2026-11-25.csv. */
export function exportFileName(now: Date): string {
  return `orders-${now.toISOString().slice(0, 10)}.csv`;
}

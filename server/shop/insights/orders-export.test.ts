import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { orders, products } from "../../db/schema";
import { parseCsv } from "../../../test-support/csv";
import { createTestDatabase } from "../../../test-support/database";
import { insertOrder, insertProduct } from "../../../test-support/factories";
import { csvCell, csvLine, exportOrdersCsv, neutraliseCell, ORDER_EXPORT_COLUMNS, UTF8_BOM } from "./orders-export";

// The CSV the Orders screen exports (issue 13, item 5): what a spreadsheet reads back from it is
// exactly the shop's text, except that nothing it reads can start a formula.

/** Text built to break a CSV: quotes, separators, line breaks, formula starts, and anything else. */
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc
    .array(fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "'", ";", "£", "SUM(A1)", "cmd|' /C calc'!A0", " ", "x"), {
      maxLength: 12,
    })
    .map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 30 }),
);

const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r"];

describe("CSV cells", () => {
  it("read back as the shop's text, with a quote before anything a spreadsheet would run", () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 1, maxLength: 8 }), (cells) => {
        const [record, ...more] = parseCsv(csvLine(cells));
        expect(more).toEqual([]);
        expect(record).toEqual(cells.map((cell) => (FORMULA_STARTS.some((start) => cell.startsWith(start)) ? `'${cell}` : cell)));
        for (const read of record!) expect(FORMULA_STARTS.some((start) => read.startsWith(start))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("are written again unchanged, as the browser rewrites the file after opening sealed addresses (the SKU and Item cells pass through)", () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 1, maxLength: 8 }), (cells) => {
        const written = csvLine(cells);
        expect(parseCsv(written).map((record) => csvLine(record)).join("")).toBe(written);
      }),
      { numRuns: 500 },
    );
  });

  it("neutralises each formula start, and leaves ordinary text and numbers alone", () => {
    expect(neutraliseCell("=HYPERLINK(\"http://x\")")).toBe("'=HYPERLINK(\"http://x\")");
    expect(neutraliseCell("+44 7700 900123")).toBe("'+44 7700 900123");
    expect(neutraliseCell("-1")).toBe("'-1");
    expect(neutraliseCell("@ann")).toBe("'@ann");
    expect(neutraliseCell("\t=1")).toBe("'\t=1");
    expect(neutraliseCell("\r=1")).toBe("'\r=1");
    expect(csvCell("Ann Smith (@ann)")).toBe("Ann Smith (@ann)");
    expect(csvCell(12.5)).toBe("12.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
  });
});

describe("exportOrdersCsv", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(orders);
  });

  const collect = async (filters: Parameters<typeof exportOrdersCsv>[1], pageSize?: number) => {
    const pieces: string[] = [];
    for await (const piece of exportOrdersCsv(database.db, filters, pageSize)) pieces.push(piece);
    return pieces;
  };

  it("starts with the byte order mark and the header, and writes one line per item with every column", async () => {
    const tea = await insertProduct(database.db, { name: "Earl Grey £ tin", price: "4.99" });
    const cup = await insertProduct(database.db, { name: "=cmd|' /C calc'!A0", price: "12.00" });
    const { order } = await insertOrder(database.db, {
      telegramUsername: "ann",
      status: "dispatched",
      paymentStatus: "finished",
      postageName: "Royal Mail 1st Class",
      postagePrice: "3.50",
      trackingNumber: "AB123456789GB",
      carrier: "Royal Mail",
      shippingAddress: { name: "Ann Smith", streetAddress: "1 High St, Flat 2", postcode: "SW1A 1AA", contact: "+44 7700 900123" },
      items: [
        { product: tea, quantity: 2 },
        { product: cup, quantity: 1 },
      ],
    });
    const text = (await collect({ sort: "newest" })).join("");
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    const [header, ...lines] = parseCsv(text.slice(UTF8_BOM.length));
    expect(header).toEqual([...ORDER_EXPORT_COLUMNS]);
    const rows = lines.map((line) => Object.fromEntries(header!.map((column, index) => [column, line[index]])));
    expect(rows).toHaveLength(2);
    // Lines of one order share its moment; which item comes first is not promised.
    const byItem = (name: string) => rows.find((row) => row.Item === name);
    expect(byItem("Earl Grey £ tin")).toEqual({
      "Order ID": order.id,
      Date: order.createdAt.toISOString(),
      Customer: "Ann Smith (@ann)",
      "Telegram user ID": order.telegramUserId,
      "Address name": "Ann Smith",
      "Street address": "1 High St, Flat 2",
      Postcode: "SW1A 1AA",
      Contact: "'+44 7700 900123",
      Postage: "Royal Mail 1st Class",
      "Postage price (GBP)": "3.50",
      Item: "Earl Grey £ tin",
      Quantity: "2",
      "Unit price (GBP)": "4.99",
      "Order total (GBP)": "21.98",
      Status: "dispatched",
      "Payment status": "finished",
      Carrier: "Royal Mail",
      "Tracking number": "AB123456789GB",
      // Only an address sealed to the owner's key (private addresses) fills it.
      "Sealed address": "",
      // No coupon on this order (issue 23): the columns are there, empty and zero.
      Coupon: "",
      "Discount (GBP)": "0.00",
      // A product without options: no variant, no SKU (issue 23).
      SKU: "",
    });
    expect(byItem("'=cmd|' /C calc'!A0")?.["Unit price (GBP)"]).toBe("12.00");
  });

  it("names each item's variant as the order kept it, and writes its SKU in the last column, neutralised (issue 23)", async () => {
    const tee = await insertProduct(database.db, { name: "Acceptance Tee", price: "15.00" });
    const mug = await insertProduct(database.db, { name: "Mug", price: "8.00" });
    const { order } = await insertOrder(database.db, {
      couponCode: "SUMMER10",
      discountAmount: "1.50",
      items: [
        { product: tee, variantLabel: "M / Black", sku: "TEE-M-BLK", quantity: 2 },
        { product: tee, variantLabel: "L / White", sku: "=cmd|' /C calc'!A0", quantity: 1 },
        { product: mug, variantLabel: null, sku: "-MUG, \"big\"\r\n=1" },
      ],
    });
    // What happens to the product later does not change what the order says it sold.
    await database.db.update(products).set({ name: "Renamed Tee" }).where(eq(products.id, tee.id));
    const [header, ...lines] = parseCsv((await collect({ sort: "newest" })).join("").slice(UTF8_BOM.length));
    expect(header!.at(-1)).toBe("SKU");
    expect(header!.indexOf("SKU")).toBe(ORDER_EXPORT_COLUMNS.indexOf("Discount (GBP)") + 1);
    const cells = (line: string[]) => ({
      item: line[ORDER_EXPORT_COLUMNS.indexOf("Item")],
      quantity: line[ORDER_EXPORT_COLUMNS.indexOf("Quantity")],
      discount: line[ORDER_EXPORT_COLUMNS.indexOf("Discount (GBP)")],
      sku: line.at(-1),
    });
    expect(lines.every((line) => line.length === ORDER_EXPORT_COLUMNS.length && line[0] === order.id)).toBe(true);
    expect(lines.map(cells).sort((a, b) => a.item!.localeCompare(b.item!))).toEqual([
      { item: "Acceptance Tee (L / White)", quantity: "1", discount: "1.50", sku: "'=cmd|' /C calc'!A0" },
      { item: "Acceptance Tee (M / Black)", quantity: "2", discount: "1.50", sku: "TEE-M-BLK" },
      { item: "Mug", quantity: "1", discount: "1.50", sku: "'-MUG, \"big\"\r\n=1" },
    ]);
  });

  it("neutralises whatever a variant's label or SKU holds, and keeps every line's columns", async () => {
    const product = await insertProduct(database.db, { name: "Tee" });
    // PostgreSQL text cannot hold NUL: an order never has one to export.
    const storable = hostileText.map((text) => text.replaceAll("\u0000", ""));
    await fc.assert(
      fc.asyncProperty(storable, storable, async (label, sku) => {
        await database.db.delete(orders);
        await insertOrder(database.db, { items: [{ product, variantLabel: label, sku }] });
        const [, line, ...more] = parseCsv((await collect({ sort: "newest" })).join("").slice(UTF8_BOM.length));
        expect(more).toEqual([]);
        expect(line).toHaveLength(ORDER_EXPORT_COLUMNS.length);
        const shown = (text: string) => (FORMULA_STARTS.some((start) => text.startsWith(start)) ? `'${text}` : text);
        expect(line![ORDER_EXPORT_COLUMNS.indexOf("Item")]).toBe(label ? `Tee (${label})` : "Tee");
        expect(line!.at(-1)).toBe(shown(sku));
      }),
      { numRuns: 40 },
    );
  });

  it("writes an order without items as one line, and one without address or username with empty cells", async () => {
    await insertOrder(database.db, { telegramUsername: null, shippingAddress: null });
    const [, line] = parseCsv((await collect({ sort: "newest" })).join("").slice(1));
    expect(line).toHaveLength(ORDER_EXPORT_COLUMNS.length);
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Customer")]).toBe("");
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Item")]).toBe("");
  });

  it("reads a page of orders at a time, in the list's order, each order once", async () => {
    const product = await insertProduct(database.db);
    const start = Date.parse("2026-03-10T12:00:00Z");
    const seeded: string[] = [];
    for (let i = 0; i < 23; i++) {
      // Pairs of orders share a moment: the id breaks the tie, across page ends too.
      const { order } = await insertOrder(database.db, { createdAt: new Date(start + Math.floor(i / 2) * 60_000), items: [{ product }] });
      seeded.push(order.id);
    }
    const pieces = await collect({ sort: "oldest" }, 5);
    // The header, then 5 pages of 5 and one of 3.
    expect(pieces).toHaveLength(1 + 5);
    const ids = parseCsv(pieces.join("").slice(1))
      .slice(1)
      .map((line) => line[0]);
    expect(new Set(ids).size).toBe(23);
    const byOldest = [...seeded].sort((a, b) => {
      const [x, y] = [seeded.indexOf(a), seeded.indexOf(b)];
      return Math.floor(x / 2) - Math.floor(y / 2) || a.localeCompare(b);
    });
    expect(ids).toEqual(byOldest);
  });

  it("holds only the orders matching the filters, as the list does", async () => {
    await insertOrder(database.db, { status: "processing", shippingAddress: { name: "Zed", streetAddress: "1 Road", postcode: "EH1 1AA", contact: null } });
    await insertOrder(database.db, { status: "pending", shippingAddress: { name: "Zed", streetAddress: "1 Road", postcode: "EH1 1AA", contact: null } });
    await insertOrder(database.db, { status: "processing" });
    const statusOf = ORDER_EXPORT_COLUMNS.indexOf("Status");
    const lines = parseCsv((await collect({ sort: "newest", status: "processing", q: "eh1" })).join("").slice(1)).slice(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]![statusOf]).toBe("processing");
    expect(lines[0]![ORDER_EXPORT_COLUMNS.indexOf("Postcode")]).toBe("EH1 1AA");
  });
});

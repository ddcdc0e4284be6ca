import crypto from "node:crypto";
import { protectAddress } from "../../shop/vaults";
import http from "node:http";
import zlib from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { orderItems, orders } from "../../db/schema";
import { ORDER_EXPORT_COLUMNS } from "../../shop/insights/orders-export";
import { useAdminServer } from "../../../test-support/app";
import { parseCsv } from "../../../test-support/csv";
import { insertOrder, insertProduct } from "../../../test-support/factories";

// GET /api/orders/export.csv (issue 13, item 5) over HTTP: the download's headers, the list's
// filters, the admin only, and thousands of orders streamed page by page (compressed or not).

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; chunks: number };

/** The answer's raw bytes and how many pieces they came in (fetch would inflate and join them). */
function rawGet(baseUrl: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), chunks: chunks.length }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

describe("GET /api/orders/export.csv", () => {
  const admin = useAdminServer();
  beforeEach(async () => {
    await admin.db().delete(orders);
  });

  const linesOf = (body: Buffer) => {
    expect(body.subarray(0, 3)).toEqual(BOM);
    return parseCsv(body.subarray(3).toString("utf8"));
  };

  it("downloads a dated CSV file with the byte order mark, for the admin only", async () => {
    const product = await insertProduct(admin.db(), { name: "Tea £5 tin" });
    await insertOrder(admin.db(), { items: [{ product, quantity: 3 }], couponCode: "SUMMER10", discountAmount: "2.99" });
    const response = await admin.get("/api/orders/export.csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const day = new Date().toISOString().slice(0, 10);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="orders-${day}.csv"`);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    const [header, line] = linesOf(Buffer.from(await response.arrayBuffer()));
    expect(header).toEqual([...ORDER_EXPORT_COLUMNS]);
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Item")]).toBe("Tea £5 tin");
    expect(line![ORDER_EXPORT_COLUMNS.indexOf("Quantity")]).toBe("3");
    // Coupons, then the SKU (issue 23): appended after the columns that were there before.
    expect(ORDER_EXPORT_COLUMNS.slice(-4)).toEqual(["Sealed address", "Coupon", "Discount (GBP)", "SKU"]);
    expect(line!.slice(-3)).toEqual(["SUMMER10", "2.99", ""]);

    const anonymous = await admin.server.request("GET", "/api/orders/export.csv");
    expect(anonymous.status).toBe(401);
  });

  it("takes the list's filters and sort, and refuses what the list refuses", async () => {
    const make = (status: "pending" | "processing", totalAmount: string, createdAt: string, postcode: string) =>
      insertOrder(admin.db(), {
        status,
        totalAmount,
        createdAt: new Date(createdAt),
        shippingAddress: { name: "Bea", streetAddress: "2 Lane", postcode, contact: null },
      });
    const early = await make("processing", "10.00", "2026-03-01T10:00:00Z", "SW1A 1AA");
    const late = await make("processing", "30.00", "2026-03-05T10:00:00Z", "SW1A 2BB");
    await make("pending", "20.00", "2026-03-03T10:00:00Z", "SW1A 1AA");
    await make("processing", "40.00", "2026-04-01T10:00:00Z", "EH1 1AA");
    const ids = async (query: string) => {
      const response = await admin.get(`/api/orders/export.csv?${query}`);
      expect(response.status, query).toBe(200);
      return linesOf(Buffer.from(await response.arrayBuffer()))
        .slice(1)
        .map((line) => line[0]);
    };
    expect(await ids("status=processing&from=2026-03-01&to=2026-03-31&sort=total-desc")).toEqual([late.order.id, early.order.id]);
    expect(await ids("q=sw1a%201aa&status=processing")).toEqual([early.order.id]);
    // The list answers the same orders in the same order.
    const list = (await (await admin.get("/api/orders?status=processing&from=2026-03-01&to=2026-03-31&sort=total-desc")).json()) as { id: string }[];
    expect(list.map((order) => order.id)).toEqual([late.order.id, early.order.id]);

    const reversed = await admin.get("/api/orders/export.csv?from=2026-03-05&to=2026-03-01");
    expect(reversed.status).toBe(400);
    expect(((await reversed.json()) as { error: string }).error).toBe("To date must not be before the from date");
    // Paging belongs to the list, not to the file.
    expect((await admin.get("/api/orders/export.csv?sort=biggest")).status).toBe(400);
  });

  it("streams thousands of orders in pieces, plain or gzipped, each order once", async () => {
    const product = await insertProduct(admin.db(), { price: "2.50" });
    const count = 3000;
    const start = Date.parse("2026-01-01T00:00:00Z");
    for (let batch = 0; batch < count; batch += 500) {
      const rows = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => {
          const id = crypto.randomUUID();
          return {
            id,
            ...(await protectAddress(admin.db(), id, { name: `=Buyer ${batch + i}`, streetAddress: "1 Road", postcode: "AB1 2CD", contact: null })),
            telegramUserId: `7${batch + i}`,
            telegramUsername: `buyer${batch + i}`,
            totalAmount: "2.50",
            currency: "GBP",
            createdAt: new Date(start + (batch + i) * 1000),
          };
        }),
      );
      const inserted = await admin.db().insert(orders).values(rows).returning({ id: orders.id, createdAt: orders.createdAt });
      await admin
        .db()
        .insert(orderItems)
        .values(inserted.map((order) => ({ orderId: order.id, productId: product.id, productName: product.name, quantity: 1, price: "2.50" })));
    }

    const plain = await rawGet(admin.server.baseUrl, "/api/orders/export.csv", { cookie: admin.cookie });
    expect(plain.status).toBe(200);
    // Sent as it is read: no length known in advance, several pieces on the wire.
    expect(plain.headers["content-length"]).toBeUndefined();
    expect(plain.headers["transfer-encoding"]).toBe("chunked");
    expect(plain.chunks).toBeGreaterThan(1);
    const lines = linesOf(plain.body).slice(1);
    expect(lines).toHaveLength(count);
    expect(new Set(lines.map((line) => line[0])).size).toBe(count);
    // Newest first, as the list; every customer-typed "=..." neutralised.
    expect(lines[0]![ORDER_EXPORT_COLUMNS.indexOf("Address name")]).toBe(`'=Buyer ${count - 1}`);
    expect(lines.every((line) => line[ORDER_EXPORT_COLUMNS.indexOf("Customer")]!.startsWith("'="))).toBe(true);

    // @fastify/compress gzips the stream as it flows, and the file is the same once inflated.
    const gzipped = await rawGet(admin.server.baseUrl, "/api/orders/export.csv", { cookie: admin.cookie, "accept-encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers["content-length"]).toBeUndefined();
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(zlib.gunzipSync(gzipped.body)).toEqual(plain.body);
  });

  it("does not take the place of an order's own routes", async () => {
    const { order } = await insertOrder(admin.db(), { status: "processing" });
    const items = await admin.get(`/api/orders/${order.id}/items`);
    expect(items.status).toBe(200);
    const put = await admin.server.request("PUT", "/api/orders/export.csv", { cookie: admin.cookie, body: { status: "dispatched" } });
    expect(put.status).toBe(404);
  });
});

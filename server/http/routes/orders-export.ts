import { Readable } from "node:stream";
import { z } from "zod";
import { OrderListQuerySchema } from "../../../contract";
import { exportFileName, exportOrdersCsv } from "../../shop/insights";
import type { Routes } from "../deps";
import { documentedOnly, ERROR_ANSWERS } from "../openapi";
import { requirePermission } from "../security";

// GET /api/orders/export.csv (issue 13, item 5): the Orders screen's filters, as a CSV download.

/**
 * The list's filters and sort without its paging: the file holds every matching order. Built from
 * the list's own fields so the two never drift; zod cannot .omit() from a refined object, so the
 * date-order check is restated.
 */
const { limit: _limit, cursor: _cursor, ...filterFields } = OrderListQuerySchema.shape;
export const OrderExportQuerySchema = z
  .object(filterFields)
  .refine((query) => !query.from || !query.to || query.from < query.to, { message: "must not be before the from date", path: ["to"] });

const csvFile = {
  "text/csv": {
    schema: documentedOnly({
      type: "string",
      description:
        "UTF-8 with a byte order mark; RFC 4180 quoting; one line per order item (an order without items has one line); " +
        "cells starting with = + - @ tab or carriage return get a leading ' so a spreadsheet shows them as text",
    }),
  },
};

export const orderExportRoutes: Routes = (app, deps) => {
  // A static path: Fastify's router prefers it to /api/orders/:id whatever the order of registration.
  app.get(
    "/api/orders/export.csv",
    {
      // A file of every order leaving the shop: its own permission, and a fresh two-factor code when the
      // account has two-factor on (security.ts).
      config: { permission: "orders.export", stepUp: true },
      schema: {
        querystring: OrderExportQuerySchema,
        response: { 200: { description: "The orders as CSV, sent as it is read", content: csvFile }, ...ERROR_ANSWERS },
      },
    },
    async (request, reply) => {
      // The file has the addresses' columns, which address-withholding.ts cannot reach inside a CSV
      // stream: a role allowed the export but not the addresses (none today) is refused here.
      requirePermission(request, "orders.addresses");
      // Streamed page by page. @fastify/compress gzips a stream as it flows (chunk by chunk, never
      // the whole file at once), which suits a text this repetitive; @fastify/etag leaves streams alone.
      return reply
        .header("Content-Type", "text/csv; charset=utf-8")
        .header("Content-Disposition", `attachment; filename="${exportFileName(deps.now())}"`)
        .send(Readable.from(exportOrdersCsv(deps.db, request.query)));
    },
  );
};

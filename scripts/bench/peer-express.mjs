// Peer: Express 5 + node-postgres answering GET /api/products with the shop's query (every product,
// newest first, id as the tie-break: server/shop/catalogue/product-list.ts) on the shop's own database, with
// a pool as large as the shop's (10). It checks no session: the shop's answer includes one lookup of
// the admin's session, which is part of what is compared. Environment: DATABASE_URL.
import express from "express";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get("/api/products", async (_request, response, next) => {
  try {
    const { rows } = await pool.query(
      `select id, name, description, price, stock, category_id as "categoryId", image_url as "imageUrl",
              bulk_pricing as "bulkPricing", is_active as "isActive", created_at as "createdAt", updated_at as "updatedAt"
         from products order by created_at desc, id desc`,
    );
    response.json(rows);
  } catch (error) {
    next(error);
  }
});
const server = app.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
server.keepAliveTimeout = 60_000;
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));

// Fills a shop database made by the server's migrations with the benchmark's data, in plain SQL
// (INSERT ... SELECT generate_series: seconds, where going through the API would take hours):
// 200 products in 5 main categories with 3 subcategories each; `orders` orders (2 items each) from
// orders/10 customers over the last year; orders/5 customer messages. Rows are made from their
// number, so both databases get the same shop. Run with the server stopped (it caches and PGlite
// allows one process per folder):
//   node scripts/bench/seed.mjs --pglite <DATA_DIR>/pglite --orders 100000
//   node scripts/bench/seed.mjs --postgres <url> --orders 100000
import { parseArgs } from "node:util";

export const PRODUCTS = 200;
export const MAIN_CATEGORIES = 5;
export const SUBCATEGORIES = 3;

/** The main categories' names, as the bot lists them (the grammY peer shows the same). */
export const mainCategoryNames = () => Array.from({ length: MAIN_CATEGORIES }, (_, i) => `Category ${i + 1}`);

/** The scale for a number of orders: 2 items per order, a message per 5 orders, 10 orders per customer. */
export function scaleFor(orders) {
  return { orders, items: orders * 2, messages: Math.floor(orders / 5), customers: Math.max(1, Math.floor(orders / 10)) };
}

/** The first Telegram user id of the seeded customers ("cust<n>" is 900000000 + n). */
export const FIRST_CUSTOMER_ID = 900_000_000;

export function seedSql(orderCount) {
  const { orders: n, messages: m, customers: c } = scaleFor(orderCount);
  // A product by its number 0..199, for the order items' product, name and price.
  const numbered = `with p as (select id, name, price, (row_number() over (order by name)) - 1 as n from products)`;
  // Order i was placed (365 days / n) * (n - i) ago: the newest is order n, a moment ago.
  const placed = (i, count) => `now() - make_interval(secs => (${count} - ${i}) * 31536000.0 / ${count})`;
  // 10% pending, 15% processing ("Ready to Dispatch"), 25% dispatched, 45% completed, 5% failed.
  const status = `case when i % 20 < 2 then 'pending' when i % 20 < 5 then 'processing' when i % 20 < 10 then 'dispatched'
    when i % 20 < 19 then 'completed' else 'failed' end`;
  return `
insert into categories (id, name, description, icon, parent_id)
  select md5('bench-cat-' || c)::uuid, 'Category ' || c, 'Main category ' || c, null, null
  from generate_series(1, ${MAIN_CATEGORIES}) c;
insert into categories (id, name, description, parent_id)
  select md5('bench-sub-' || c || '-' || s)::uuid, 'Category ' || c || '.' || s, null, md5('bench-cat-' || c)::uuid
  from generate_series(1, ${MAIN_CATEGORIES}) c, generate_series(1, ${SUBCATEGORIES}) s;
insert into products (id, name, description, price, stock, category_id, bulk_pricing, is_active, created_at, updated_at)
  select md5('bench-product-' || i)::uuid, 'Product ' || lpad(i::text, 3, '0'),
    'A sturdy, well-made product (number ' || i || ') for the benchmark, described in a sentence or two.',
    (1 + (i * 37 % 9900) / 100.0)::numeric(10, 2),
    case when i % 10 = 0 then 0 else 5 + i % 50 end,
    md5('bench-sub-' || (1 + i % ${MAIN_CATEGORIES}) || '-' || (1 + (i / ${MAIN_CATEGORIES}) % ${SUBCATEGORIES}))::uuid,
    case when i % 4 = 0 then '[{"minQuantity": 3, "price": 0.5}]'::jsonb end,
    true, now() - make_interval(mins => i), now() - make_interval(mins => i)
  from generate_series(1, ${PRODUCTS}) i;
insert into postage_options (name, price, description, estimated_days)
  values ('Royal Mail 2nd Class', 2.85, 'Untracked, 2-3 working days', 3), ('Royal Mail Tracked 24', 4.99, 'Tracked', 1);
${numbered}
insert into orders (id, telegram_user_id, telegram_username, status, total_amount, currency, payment_method, payment_status,
    payment_id, shipping_address, postage_name, postage_price, pay_currency, payment_expires_at, paid_at, created_at, updated_at)
  select md5('bench-order-' || i)::uuid, (${FIRST_CUSTOMER_ID} + i % ${c})::text, 'cust' || (i % ${c}), o.status,
    (p1.price * (1 + i % 3) + p2.price * (1 + (i / 3) % 2) + 2.85)::numeric(10, 2), 'GBP',
    (array['btc', 'ltc', 'xmr'])[1 + i % 3],
    case o.status when 'pending' then 'waiting' when 'failed' then 'expired' else 'finished' end,
    'bench-pay-' || i,
    jsonb_build_object('name', 'Customer ' || (i % ${c}), 'streetAddress', (1 + i % 200) || ' High Street, Town ' || (i % 50),
      'postcode', 'AB' || (10 + i % 90) || ' ' || (i % 9) || 'CD', 'contact', null),
    'Royal Mail 2nd Class', 2.85, upper((array['btc', 'ltc', 'xmr'])[1 + i % 3]),
    -- Pending orders wait for a payment due in 30 days: the server's expiry job leaves them alone.
    case when o.status = 'pending' then now() + interval '30 days' end,
    case when o.status in ('processing', 'dispatched', 'completed') then o.at + interval '10 minutes' end,
    o.at, o.at
  from generate_series(1, ${n}) i
  cross join lateral (select ${status} as status, ${placed("i", n)} as at) o
  join p p1 on p1.n = i % ${PRODUCTS}
  join p p2 on p2.n = (i * 7 + 3) % ${PRODUCTS};
${numbered}
insert into order_items (order_id, product_id, product_name, quantity, price, created_at)
  select md5('bench-order-' || i)::uuid, p.id, p.name, case k when 0 then 1 + i % 3 else 1 + (i / 3) % 2 end, p.price, ${placed("i", n)}
  from generate_series(1, ${n}) i
  cross join generate_series(0, 1) k
  join p on p.n = case k when 0 then i % ${PRODUCTS} else (i * 7 + 3) % ${PRODUCTS} end;
insert into customer_messages (telegram_user_id, telegram_username, message, is_from_customer, is_read, order_id, created_at)
  select (${FIRST_CUSTOMER_ID} + j % ${c})::text, 'cust' || (j % ${c}),
    'Message ' || j || ': hello, when will my order arrive? Thank you!',
    j % 3 <> 0,
    -- The newest 60 customer messages are unread.
    j % 3 = 0 or j <= ${m} - 90,
    case when j % 4 = 0 then md5('bench-order-' || ((j * 5) % ${n} + 1))::uuid end,
    ${placed("j", Math.max(m, 1))}
  from generate_series(1, ${m}) j;
analyze;
`;
}

async function main() {
  const { values } = parseArgs({
    options: { pglite: { type: "string" }, postgres: { type: "string" }, orders: { type: "string", default: "100000" } },
  });
  const sql = seedSql(Number(values.orders));
  const started = performance.now();
  if (values.pglite) {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(values.pglite);
    await db.exec(sql);
    await db.close();
  } else if (values.postgres) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: values.postgres });
    await client.connect();
    await client.query(sql);
    await client.end();
  } else {
    throw new Error("--pglite <folder> or --postgres <url> is required");
  }
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === import.meta.filename) await main();

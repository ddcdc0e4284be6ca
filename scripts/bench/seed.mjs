// Fills a shop database made by the server's migrations with the benchmark's data, in plain SQL
// (INSERT ... SELECT generate_series: seconds, where going through the API would take hours):
// 200 products in 5 main categories with 3 subcategories each; `orders` orders (2 items each) from
// orders/10 customers over the last year; orders/5 customer messages. Rows are made from their
// number, so both databases get the same shop. Run with the server stopped (it caches and PGlite
// allows one process per folder):
//   node scripts/bench/seed.mjs --pglite <DATA_DIR>/pglite --secret-key-file <DATA_DIR>/secret.key --orders 100000
//   node scripts/bench/seed.mjs --postgres <url> --secret-key-file <DATA_DIR>/secret.key --orders 100000
// Addresses and messages are stored as the shop stores them (issue 15): encrypted envelopes under a data
// key wrapped by the shop's master key, with blind index tokens. The format is spelled out again here
// (server/shop/vaults/vault.ts, address-vault.ts, message-vault.ts): the benchmark never imports the server.
import crypto from "node:crypto";
import fs from "node:fs";
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
    payment_id, postage_name, postage_price, pay_currency, payment_expires_at, paid_at, created_at, updated_at)
  select md5('bench-order-' || i)::uuid, (${FIRST_CUSTOMER_ID} + i % ${c})::text, 'cust' || (i % ${c}), o.status,
    (p1.price * (1 + i % 3) + p2.price * (1 + (i / 3) % 2) + 2.85)::numeric(10, 2), 'GBP',
    (array['btc', 'ltc', 'xmr'])[1 + i % 3],
    case o.status when 'pending' then 'waiting' when 'failed' then 'expired' else 'finished' end,
    'bench-pay-' || i,
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
-- The text is filled in encrypted afterwards (encryptedRows).
insert into customer_messages (id, telegram_user_id, telegram_username, message, is_from_customer, is_read, order_id, created_at)
  select md5('bench-message-' || j)::uuid, (${FIRST_CUSTOMER_ID} + j % ${c})::text, 'cust' || (j % ${c}),
    '',
    j % 3 <> 0,
    -- The newest 60 customer messages are unread.
    j % 3 = 0 or j <= ${m} - 90,
    case when j % 4 = 0 then md5('bench-order-' || ((j * 5) % ${n} + 1))::uuid end,
    ${placed("j", Math.max(m, 1))}
  from generate_series(1, ${m}) j;
`;
}

// --- Encryption as the shop does it (server/shop/vaults/vault.ts) ---

const b64 = (bytes) => bytes.toString("base64url");
const md5Uuid = (text) => {
  const hex = crypto.createHash("md5").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
function gcm(key, plain, binding) {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(binding, "utf8"));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return { nonce, data };
}

/** A new current data key wrapped by the master key (a DATA_DIR/secret.key's 64 hex characters). */
export function benchDataKey(masterHex) {
  const id = crypto.randomBytes(6).toString("hex");
  const material = crypto.randomBytes(32);
  const wrap = gcm(Buffer.from(masterHex.trim(), "hex"), material, `data_keys:${id}`);
  const derive = (purpose) => Buffer.from(crypto.hkdfSync("sha256", material, Buffer.alloc(0), purpose, 32));
  return {
    id,
    wrapped: `mk1:${b64(wrap.nonce)}:${b64(wrap.data)}`,
    encryption: derive("shop vault v1 aes-256-gcm"),
    index: derive("shop vault v1 blind index"),
  };
}

const seal = (key, plain, binding) => {
  const { nonce, data } = gcm(key.encryption, plain, binding);
  return `sk1:${key.id}:${b64(nonce)}:${b64(data)}`;
};
const tokens = (key, terms) =>
  [...new Set(terms)].map((term) => b64(crypto.createHmac("sha256", key.index).update(term, "utf8").digest().subarray(0, 16)));

function addressTerms(address) {
  const postcode = address.postcode.toUpperCase().replace(/\s+/g, "");
  const name = address.name.toLowerCase().trim().replace(/\s+/g, " ");
  return [`postcode:${postcode}`, `outward:${postcode.slice(0, -3)}`, `name:${name}`, ...name.split(" ").map((word) => `word:${word}`)];
}
const messageTerms = (text) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].map((word) => `word:${word}`);

/** Batches of [sql, params] that store every order's address and every message's text encrypted. */
export function* encryptedRows(orderCount, key) {
  const { orders: n, messages: m, customers: c } = scaleFor(orderCount);
  const BATCH = 2000;
  for (let start = 1; start <= n; start += BATCH) {
    const ids = [], sealed = [], search = [];
    for (let i = start; i < Math.min(start + BATCH, n + 1); i++) {
      const id = md5Uuid(`bench-order-${i}`);
      const address = {
        name: `Customer ${i % c}`,
        streetAddress: `${1 + (i % 200)} High Street, Town ${i % 50}`,
        postcode: `AB${10 + (i % 90)} ${i % 9}CD`,
        contact: null,
      };
      ids.push(id);
      sealed.push(seal(key, JSON.stringify(address), `orders.address:${id}`));
      search.push(tokens(key, addressTerms(address)).join(" "));
    }
    yield [
      `update orders o set address = v.address, address_search = string_to_array(v.search, ' ')
         from (select unnest($1::uuid[]) as id, unnest($2::text[]) as address, unnest($3::text[]) as search) v where o.id = v.id`,
      [ids, sealed, search],
    ];
  }
  for (let start = 1; start <= m; start += BATCH) {
    const ids = [], sealed = [], search = [];
    for (let j = start; j < Math.min(start + BATCH, m + 1); j++) {
      const id = md5Uuid(`bench-message-${j}`);
      const text = `Message ${j}: hello, when will my order arrive? Thank you!`;
      ids.push(id);
      sealed.push(seal(key, text, `customer_messages.message:${id}`));
      search.push(tokens(key, messageTerms(text)).join(" "));
    }
    yield [
      `update customer_messages c set message = v.message, search_tokens = string_to_array(v.search, ' ')
         from (select unnest($1::uuid[]) as id, unnest($2::text[]) as message, unnest($3::text[]) as search) v where c.id = v.id`,
      [ids, sealed, search],
    ];
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      pglite: { type: "string" },
      postgres: { type: "string" },
      orders: { type: "string", default: "100000" },
      "secret-key-file": { type: "string" },
    },
  });
  if (!values["secret-key-file"]) throw new Error("--secret-key-file <DATA_DIR>/secret.key is required (the shop's master key)");
  const orders = Number(values.orders);
  const sql = seedSql(orders);
  const key = benchDataKey(fs.readFileSync(values["secret-key-file"], "utf8"));
  const keySql = `insert into data_keys (id, wrapped, state) values ('${key.id}', '${key.wrapped}', 'current')`;
  const started = performance.now();
  if (values.pglite) {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(values.pglite);
    await db.exec(sql);
    await db.exec(keySql);
    for (const [text, params] of encryptedRows(orders, key)) await db.query(text, params);
    await db.exec("analyze");
    await db.close();
  } else if (values.postgres) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: values.postgres });
    await client.connect();
    await client.query(sql);
    await client.query(keySql);
    for (const [text, params] of encryptedRows(orders, key)) await client.query(text, params);
    await client.query("analyze");
    await client.end();
  } else {
    throw new Error("--pglite <folder> or --postgres <url> is required");
  }
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === import.meta.filename) await main();

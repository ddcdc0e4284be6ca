import crypto from "node:crypto";
import { count } from "drizzle-orm";
import type { Db } from "../server/db/client";
import {
  categories,
  customerMessages,
  orderItems,
  orders,
  postageOptions,
  products,
  type BulkPricingTier,
  type ShippingAddress,
} from "../server/db/schema";
import { protectAddress, protectMessage } from "../server/shop/vaults";
import { CliError } from "./cli";

// A believable small shop for trying the back office: every screen has something to show.
// Times are relative to `now`, so the dashboard's daily and weekly figures are never empty.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type ProductSeed = {
  key: string;
  name: string;
  description: string;
  price: string;
  stock: number;
  category: string;
  bulkPricing?: BulkPricingTier[];
  isActive?: boolean;
};

const CATEGORY_TREE: { name: string; description: string; icon: string; children: string[] }[] = [
  { name: "Home & Living", description: "Lighting and soft furnishings", icon: "fas fa-couch", children: ["Lighting", "Textiles"] },
  { name: "Kitchen", description: "Everything for cooking and serving", icon: "fas fa-utensils", children: ["Cookware", "Tableware"] },
  { name: "Garden", description: "Tools and planters", icon: "fas fa-seedling", children: ["Garden Tools"] },
];

const PRODUCTS: ProductSeed[] = [
  { key: "lamp", name: "Brass Desk Lamp", description: "Adjustable arm, warm LED bulb included.", price: "34.99", stock: 14, category: "Lighting" },
  {
    key: "bulbs", name: "Filament Bulbs (E27)", description: "Vintage-style dimmable bulbs, 4 W.", price: "4.50", stock: 120, category: "Lighting",
    bulkPricing: [{ minQuantity: 4, price: 4 }, { minQuantity: 10, price: 3.5 }],
  },
  { key: "lights", name: "Festoon String Lights", description: "10 m outdoor string with 20 bulbs.", price: "24.00", stock: 0, category: "Lighting" },
  {
    key: "throw", name: "Wool Throw Blanket", description: "Soft merino blend, 130 x 170 cm.", price: "45.00", stock: 8, category: "Textiles",
    bulkPricing: [{ minQuantity: 2, price: 40 }],
  },
  { key: "cushion", name: "Linen Cushion Cover", description: "45 x 45 cm, hidden zip, stone colour.", price: "12.99", stock: 35, category: "Textiles" },
  {
    key: "pan", name: "Cast Iron Skillet 26 cm", description: "Pre-seasoned, oven safe.", price: "29.95", stock: 11, category: "Cookware",
    bulkPricing: [{ minQuantity: 3, price: 27 }],
  },
  { key: "knife", name: "Chef's Knife 20 cm", description: "German steel, full tang.", price: "39.00", stock: 6, category: "Cookware" },
  {
    key: "mugs", name: "Stoneware Mug Set (4)", description: "Speckled glaze, dishwasher safe.", price: "22.00", stock: 25, category: "Tableware",
    bulkPricing: [{ minQuantity: 2, price: 20 }, { minQuantity: 5, price: 18 }],
  },
  { key: "board", name: "Oak Serving Board", description: "Hand-oiled, 40 cm long.", price: "18.50", stock: 17, category: "Tableware" },
  { key: "trowel", name: "Hand Trowel", description: "Stainless steel with ash handle.", price: "9.99", stock: 40, category: "Garden Tools" },
  {
    key: "gloves", name: "Gardening Gloves", description: "Breathable, touch-screen fingertips.", price: "6.49", stock: 60, category: "Garden Tools",
    bulkPricing: [{ minQuantity: 3, price: 5.5 }],
  },
  { key: "planter", name: "Terracotta Planter", description: "30 cm, with drainage hole.", price: "15.00", stock: 3, category: "Garden", isActive: false },
];

const POSTAGE = [
  { key: "second", name: "Royal Mail 2nd Class", description: "Untracked, 2-3 working days", price: "2.85", estimatedDays: 3 },
  { key: "tracked", name: "Royal Mail Tracked 24", description: "Tracked, next working day aim", price: "4.99", estimatedDays: 1 },
  { key: "special", name: "Special Delivery", description: "Guaranteed by 1pm, signed for", price: "8.95", estimatedDays: 1 },
] as const;

type Customer = { id: string; username: string | null; address: ShippingAddress };

const CUSTOMERS: Record<string, Customer> = {
  alice: { id: "5123409876", username: "alice_m", address: { name: "Alice Morgan", streetAddress: "14 Cedar Road, Bristol", postcode: "BS6 5TH", contact: "07700 900411" } },
  ben: { id: "6234510987", username: "benwright", address: { name: "Ben Wright", streetAddress: "Flat 3, 27 Mill Lane, Leeds", postcode: "LS6 2AB", contact: null } },
  chloe: { id: "7345621098", username: null, address: { name: "Chloe Evans", streetAddress: "8 Harbour View, Cardiff", postcode: "CF10 4PA", contact: "chloe.e@example.com" } },
  dev: { id: "8456732109", username: "dev_patel", address: { name: "Dev Patel", streetAddress: "52 Queen Street, Glasgow", postcode: "G1 3DX", contact: null } },
  emma: { id: "9567843210", username: "emmaj", address: { name: "Emma Jones", streetAddress: "3 Orchard Close, Norwich", postcode: "NR2 4QP", contact: "07700 900977" } },
};

type OrderSeed = {
  customer: keyof typeof CUSTOMERS;
  ago: number;
  status: string;
  paymentStatus: string;
  coin: "btc" | "ltc" | "xmr";
  postage: (typeof POSTAGE)[number]["key"] | null;
  lines: [productKey: string, quantity: number][];
  trackingNumber?: string;
};

const ORDERS: OrderSeed[] = [
  // Waiting for the customer's payment.
  { customer: "ben", ago: 25 * MINUTE, status: "pending", paymentStatus: "waiting", coin: "ltc", postage: "second", lines: [["mugs", 1]] },
  { customer: "dev", ago: 70 * MINUTE, status: "pending", paymentStatus: "partially_paid", coin: "btc", postage: "tracked", lines: [["knife", 1], ["board", 1]] },
  // Older than 2 hours and never paid: what Cleanup Expired is for.
  { customer: "emma", ago: 5 * HOUR, status: "pending", paymentStatus: "waiting", coin: "xmr", postage: "second", lines: [["gloves", 3]] },
  // Paid today: Ready to Dispatch, and today's revenue.
  { customer: "alice", ago: 8 * MINUTE, status: "processing", paymentStatus: "finished", coin: "btc", postage: "tracked", lines: [["lamp", 1], ["bulbs", 4]] },
  { customer: "chloe", ago: 18 * MINUTE, status: "processing", paymentStatus: "confirmed", coin: "xmr", postage: "special", lines: [["throw", 2]] },
  { customer: "dev", ago: 26 * HOUR, status: "processing", paymentStatus: "finished", coin: "ltc", postage: "second", lines: [["cushion", 2]] },
  // On their way or delivered.
  { customer: "alice", ago: 2 * DAY, status: "dispatched", paymentStatus: "finished", coin: "btc", postage: "tracked", lines: [["pan", 1]], trackingNumber: "RM482915736GB" },
  { customer: "ben", ago: 4 * DAY, status: "completed", paymentStatus: "finished", coin: "ltc", postage: "second", lines: [["trowel", 1], ["gloves", 3]] },
  { customer: "emma", ago: 12 * DAY, status: "completed", paymentStatus: "finished", coin: "btc", postage: null, lines: [["mugs", 2]] },
  // Never paid and failed: can be deleted.
  { customer: "chloe", ago: 3 * DAY, status: "failed", paymentStatus: "expired", coin: "btc", postage: "tracked", lines: [["knife", 1]] },
];

type ConversationLine = [from: "customer" | "admin", text: string, ago: number, read?: boolean];

const CONVERSATIONS: { customer: keyof typeof CUSTOMERS; lines: ConversationLine[] }[] = [
  {
    customer: "alice",
    lines: [
      ["customer", "Hi! Will my skillet arrive before the weekend?", 2 * DAY - 3 * HOUR, true],
      ["admin", "Hi Alice, it went out today with Tracked 24, so it should be with you tomorrow.", 2 * DAY - 2 * HOUR],
      ["customer", "Brilliant, thank you! Also just ordered the desk lamp :)", 6 * MINUTE, false],
    ],
  },
  {
    customer: "dev",
    lines: [
      ["customer", "I sent BTC but the bot says the payment is only partial. What should I do?", 50 * MINUTE, false],
      ["customer", "The transaction fee may have come out of the amount.", 45 * MINUTE, false],
    ],
  },
  {
    customer: "emma",
    lines: [
      ["customer", "Are the stoneware mugs dishwasher safe?", 13 * DAY, true],
      ["admin", "They are, and microwave safe too.", 13 * DAY - HOUR],
      ["customer", "Great, ordering two sets then.", 12 * DAY + HOUR, true],
    ],
  },
];

const PAY: Record<OrderSeed["coin"], { address: string; amount: string }> = {
  btc: { address: "bc1qdemo0wallet0address0xk2m9", amount: "0.00061" },
  ltc: { address: "ltc1qdemo0wallet0address0p7h3", amount: "0.6125" },
  xmr: { address: "48demoMoneroAddress0000000000000000000000", amount: "0.2871" },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const pence = (price: string) => Math.round(Number(price) * 100);
const pounds = (amount: number) => (amount / 100).toFixed(2);

/** Fills an empty shop with demo data. Refuses when products or orders exist, so real data is never mixed with it. */
export async function seedDemo(db: Db, now: Date): Promise<{ categories: number; products: number; postageOptions: number; orders: number; messages: number }> {
  const at = (ago: number) => new Date(now.getTime() - ago);
  return db.transaction(async (tx) => {
    const productCount = (await tx.select({ n: count() }).from(products))[0]!.n;
    const orderCount = (await tx.select({ n: count() }).from(orders))[0]!.n;
    if (productCount > 0 || orderCount > 0) {
      throw new CliError(
        `The database already has ${plural(productCount, "product")} and ${plural(orderCount, "order")}. ` +
          "Demo data goes only into an empty shop; nothing was added.",
      );
    }

    const categoryIds = new Map<string, string>();
    for (const main of CATEGORY_TREE) {
      const [row] = await tx
        .insert(categories)
        .values({ name: main.name, description: main.description, icon: main.icon, createdAt: at(30 * DAY), updatedAt: at(30 * DAY) })
        .returning({ id: categories.id });
      categoryIds.set(main.name, row!.id);
      for (const child of main.children) {
        const [sub] = await tx
          .insert(categories)
          .values({ name: child, parentId: row!.id, createdAt: at(30 * DAY), updatedAt: at(30 * DAY) })
          .returning({ id: categories.id });
        categoryIds.set(child, sub!.id);
      }
    }

    const productRows = new Map<string, { id: string; name: string; price: string }>();
    for (const [index, seed] of PRODUCTS.entries()) {
      const created = at(29 * DAY - index * HOUR);
      const [row] = await tx
        .insert(products)
        .values({
          name: seed.name,
          description: seed.description,
          price: seed.price,
          stock: seed.stock,
          categoryId: categoryIds.get(seed.category)!,
          bulkPricing: seed.bulkPricing ?? null,
          isActive: seed.isActive ?? true,
          createdAt: created,
          updatedAt: created,
        })
        .returning({ id: products.id, name: products.name, price: products.price });
      productRows.set(seed.key, row!);
    }

    const postageRows = new Map<string, { id: string; name: string; price: string }>();
    for (const option of POSTAGE) {
      const [row] = await tx
        .insert(postageOptions)
        .values({ name: option.name, description: option.description, price: option.price, estimatedDays: option.estimatedDays, createdAt: at(30 * DAY) })
        .returning({ id: postageOptions.id, name: postageOptions.name, price: postageOptions.price });
      postageRows.set(option.key, row!);
    }

    const placed: { id: string; telegramUserId: string; createdAt: Date }[] = [];
    for (const [index, seed] of ORDERS.entries()) {
      const customer = CUSTOMERS[seed.customer]!;
      const created = at(seed.ago);
      const lines = seed.lines.map(([key, quantity]) => {
        const product = productRows.get(key)!;
        const tier = PRODUCTS.find((p) => p.key === key)!
          .bulkPricing?.filter((t) => quantity >= t.minQuantity)
          .at(-1);
        return { product, quantity, price: tier ? tier.price.toFixed(2) : product.price };
      });
      const postage = seed.postage ? postageRows.get(seed.postage)! : null;
      const total = lines.reduce((sum, line) => sum + pence(line.price) * line.quantity, 0) + (postage ? pence(postage.price) : 0);
      const paid = !["waiting", "expired"].includes(seed.paymentStatus);
      const orderId = crypto.randomUUID();
      const [order] = await tx
        .insert(orders)
        .values({
          id: orderId,
          ...(await protectAddress(tx, orderId, customer.address)),
          telegramUserId: customer.id,
          telegramUsername: customer.username,
          status: seed.status,
          totalAmount: pounds(total),
          currency: "GBP",
          paymentMethod: seed.coin,
          paymentStatus: seed.paymentStatus,
          paymentId: String(5_077_000_000 + index * 7919),
          transactionHash: paid ? `demo${(index + 1).toString(16).padStart(4, "0")}${"ab12cd34".repeat(7)}` : null,
          postageOptionId: postage?.id ?? null,
          postageName: postage?.name ?? null,
          postagePrice: postage?.price ?? null,
          trackingNumber: seed.trackingNumber ?? null,
          payAddress: PAY[seed.coin].address,
          payAmount: PAY[seed.coin].amount,
          payCurrency: seed.coin,
          paymentExpiresAt: new Date(created.getTime() + 20 * MINUTE),
          actuallyPaid: seed.paymentStatus === "partially_paid" ? "0.00052" : paid ? PAY[seed.coin].amount : null,
          // A failed order's reserved stock has gone back already.
          stockReleasedAt: seed.status === "failed" ? new Date(created.getTime() + 2 * HOUR) : null,
          // Revenue counts by the time payment was confirmed: a few minutes after the order.
          paidAt: ["processing", "dispatched", "completed"].includes(seed.status) ? new Date(Math.min(now.getTime(), created.getTime() + 5 * MINUTE)) : null,
          createdAt: created,
          updatedAt: seed.status === "pending" ? created : new Date(Math.min(now.getTime(), created.getTime() + 30 * MINUTE)),
        })
        .returning({ id: orders.id });
      placed.push({ id: order!.id, telegramUserId: customer.id, createdAt: created });
      await tx.insert(orderItems).values(
        lines.map((line) => ({
          orderId: order!.id,
          productId: line.product.id,
          productName: line.product.name,
          quantity: line.quantity,
          price: line.price,
          createdAt: created,
        })),
      );
    }

    let messages = 0;
    for (const conversation of CONVERSATIONS) {
      const customer = CUSTOMERS[conversation.customer]!;
      for (const [from, text, ago, read] of conversation.lines) {
        // Linked, as the bot does, to the customer's latest order at the time of the message.
        const latestOrder = placed
          .filter((o) => o.telegramUserId === customer.id && o.createdAt.getTime() <= now.getTime() - ago)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
        const messageId = crypto.randomUUID();
        await tx.insert(customerMessages).values({
          id: messageId,
          ...(await protectMessage(tx, messageId, text)),
          telegramUserId: customer.id,
          telegramUsername: customer.username,
          isFromCustomer: from === "customer",
          isRead: from === "admin" ? true : (read ?? false),
          orderId: latestOrder?.id ?? null,
          createdAt: at(ago),
        });
        messages++;
      }
    }

    return {
      categories: categoryIds.size,
      products: productRows.size,
      postageOptions: postageRows.size,
      orders: ORDERS.length,
      messages,
    };
  });
}

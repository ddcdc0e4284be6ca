import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { createSecretBox } from "../../crypto";
import type { Database } from "../../db/client";
import { orderItems } from "../../db/schema";
import { createNowPaymentsGatewayFromSettings } from "../../gateways/nowpayments/client";
import { createTestDatabase } from "../../../test-support/database";
import { insertProduct } from "../../../test-support/factories";
import { startFakeNowPayments, type FakeNowPayments } from "../../../test-support/fake-nowpayments";
import { configurePayments, TEST_NOWPAYMENTS_API_KEY } from "../../../test-support/payments-setup";
import { addToCart } from "./cart";
import { checkout, type CheckoutDeps } from "./checkout";

// Issue 26: an order keeps what the customer saw. A line bought in a language that gave the product
// another name keeps that name (order_items.shown_name) beside the product's own.

const address = { name: "Ada Lovelace", streetAddress: "12 Analytical Row, London", postcode: "NW1 2AB", contact: null };

describe("the name an order line was shown under", () => {
  let database: Database;
  let gateway: FakeNowPayments;
  let deps: CheckoutDeps;

  beforeAll(async () => {
    database = await createTestDatabase();
    gateway = await startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY });
    const secrets = createSecretBox(Buffer.alloc(32, 3));
    const config = { ...loadConfig({}), nowpaymentsApiUrl: gateway.url, publicUrl: "https://shop.example" };
    deps = { db: database.db, secrets, config, gateway: createNowPaymentsGatewayFromSettings({ db: database.db, secrets, config }), now: () => new Date() };
    await configurePayments(deps);
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.close();
  });

  it("keeps the German name of a German order, and none where the name was the product's own", async () => {
    const jacket = await insertProduct(database.db, { name: "Rain Jacket", price: "10.00", stock: 5, translations: { de: { name: "Regenjacke" } } });
    const hat = await insertProduct(database.db, { name: "Wool Hat", price: "5.00", stock: 5 });
    await addToCart(database.db, "8260001", jacket.id, 1);
    await addToCart(database.db, "8260001", hat.id, 1);
    const german = await checkout(deps, { telegramUserId: "8260001", shippingAddress: address, postageOptionId: null, coin: "BTC", language: "de" });
    const stored = (orderId: string) => database.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    const shown = Object.fromEntries((await stored(german.order.id)).map((item) => [item.productName, item.shownName]));
    expect(shown).toEqual({ "Rain Jacket": "Regenjacke", "Wool Hat": null });

    await addToCart(database.db, "8260002", jacket.id, 1);
    const english = await checkout(deps, { telegramUserId: "8260002", shippingAddress: address, postageOptionId: null, coin: "BTC", language: "en" });
    expect((await stored(english.order.id)).map((item) => item.shownName)).toEqual([null]);
  });
});

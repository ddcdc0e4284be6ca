import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShopWithConfiguredBot, type ShopWithBot } from "../../test-support/bot-harness";
import { insertOrder, insertProduct } from "../../test-support/factories";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";

// My Orders tells a customer where a dispatched parcel is with the same carrier, tracking number and
// tracking link as the dispatch message did (issue 13), so a lost message loses nothing.

describe("My Orders for dispatched orders", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000005:my-orders-test-token" });
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("shows the carrier, the tracking number and, for a known carrier, the tracking link", async () => {
    const { db } = shop.server.deps;
    const product = await insertProduct(db, { name: "Teapot", price: "15.00", stock: 4 });
    const ann = shop.customer(94_000_001, "ann");
    const line = { items: [{ product, quantity: 1 }], telegramUserId: ann.id, paymentStatus: "finished" };
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    await insertOrder(db, { ...line, status: "dispatched", carrier: "Royal Mail", trackingNumber: "RM 123456785GB", createdAt: minutesAgo(3) });
    await insertOrder(db, { ...line, status: "dispatched", carrier: "Bike courier", trackingNumber: "BC-7", createdAt: minutesAgo(2) });
    await insertOrder(db, { ...line, status: "processing", createdAt: minutesAgo(1) });

    await ann.send("/start");
    await ann.press("My Orders");
    const blocks = ann.text().split("\n\n").slice(1);
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).not.toMatch(/Carrier|Tracking|Track your parcel/);
    expect(blocks[1]).toContain("Carrier: Bike courier\nTracking number: BC-7");
    expect(blocks[1]).not.toContain("Track your parcel");
    expect(blocks[2]).toContain(
      "Carrier: Royal Mail\nTracking number: RM 123456785GB\nTrack your parcel: https://www.royalmail.com/track-your-item#/tracking-results/RM123456785GB",
    );
  });
});

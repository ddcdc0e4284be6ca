import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, customerMessages, orders } from "../db/schema";
import { startShopWithConfiguredBot, type ShopWithBot } from "../../test-support/bot-harness";
import { insertCustomerMessage, insertOrder } from "../../test-support/factories";
import { saveCustomerNote } from "../shop/customers";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { CONFIRM_FORGET_BUTTON, FORGET_BUTTON, MY_DATA_BUTTON } from "./features/my-data";

// "My data" and /forgetme in the bot (issue 15, item 4): the customer sees what the shop keeps and
// can have it erased after a confirmation; the owner sees that it happened in the audit log.

describe("My data and /forgetme", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000012:my-data-test-token", faqContent: "We ship fast." });
  });
  afterAll(async () => {
    await shop?.close();
    await telegram?.close();
  });

  it("shows what the shop keeps, and erases it only after the customer confirms", async () => {
    const { db } = shop.server.deps;
    const dora = shop.customer(95_000_001, "dora_d");
    const other = shop.customer(95_000_002, "olly");
    const { order: delivered } = await insertOrder(db, { telegramUserId: dora.id, telegramUsername: "dora_d", status: "completed" });
    const { order: toSend } = await insertOrder(db, { telegramUserId: dora.id, telegramUsername: "dora_d", status: "processing" });
    const { order: others } = await insertOrder(db, { telegramUserId: other.id, telegramUsername: "olly", status: "completed" });
    await insertCustomerMessage(db, { telegramUserId: dora.id, telegramUsername: "dora_d", message: "Is it on its way?" });

    await dora.send("/start");
    await dora.press("About");
    expect(dora.text()).toBe("About\n\nWe ship fast.");
    await dora.press(MY_DATA_BUTTON);
    expect(dora.text()).toBe(
      [
        "My data",
        "What this shop keeps about you:\n• Your Telegram id and username @dora_d, to answer you here\n• 2 orders: amounts, items and status, 2 with delivery addresses\n• 1 support message\n• Announcements: on (send /stop to turn them off)",
        "Delivery addresses are erased 30 days after an order is completed or cancelled.",
        "Send /forgetme, or tap below, to erase your addresses, messages and username now. Amounts stay for the shop's accounts.",
      ].join("\n\n"),
    );

    // The owner writes a note about them: they are told the shop keeps one (never what it says).
    await saveCustomerNote(db, dora.id, "Dora: always asks about the parcel", new Date());
    // Asking is not doing: Cancel leaves everything as it was.
    await dora.press(FORGET_BUTTON);
    expect(dora.text()).toMatch(/^Erase your data\?/);
    await dora.press("Cancel");
    expect(dora.text()).toMatch(/^My data/);
    expect(dora.text()).toContain("• 1 support message\n• A note the shop keeps about you, to serve you\n• Announcements");
    expect(dora.text()).not.toContain("always asks");
    expect((await db.select().from(customerMessages).where(eq(customerMessages.telegramUserId, dora.id))).length).toBe(1);

    await dora.send("/forgetme");
    expect(dora.text()).toMatch(/^Erase your data\?/);
    await dora.press(CONFIRM_FORGET_BUTTON);
    expect(dora.text()).toBe(
      "Done: your data is erased.\n\n1 address and 1 message erased.\n\nThe address on 1 order still to be sent is kept until it is dispatched, then erased.",
    );
    const rows = new Map((await db.select().from(orders)).map((row) => [row.id, row]));
    expect(rows.get(delivered.id)).toMatchObject({ address: null, addressSearch: null, telegramUsername: null });
    expect(rows.get(delivered.id)!.addressErasedAt).toBeInstanceOf(Date);
    expect(rows.get(toSend.id)!.address).not.toBeNull();
    expect(rows.get(others.id)).toMatchObject({ telegramUsername: "olly" });
    expect(rows.get(others.id)!.address).not.toBeNull();
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, dora.id));
    expect(entry).toMatchObject({ action: "customer.forget-requested", targetType: "customer" });

    // What is left, as the customer sees it now.
    await dora.press("« Main menu");
    await dora.press("About");
    await dora.press(MY_DATA_BUTTON);
    expect(dora.text()).toContain("• Your Telegram id, to answer you here\n• 2 orders: amounts, items and status, 1 with a delivery address\n• 0 support messages");
    expect(dora.text()).not.toContain("A note");
  });
});

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botCustomers } from "../db/schema";
import { createBroadcast, getBroadcastProgress } from "../shop/customers";
import { silentLog, startShopWithConfiguredBot, type ShopWithBot } from "../../test-support/bot-harness";
import { startFakeTelegram, type FakeTelegram } from "../../test-support/fake-telegram";
import { createBroadcastSender, type BroadcastSender } from "./broadcast-sender";
import { OPTED_OUT_REPLY } from "./features/opt-out";
import { OPTED_IN_REPLY } from "./features/start";
import { queryRows } from "../db/rows";

// /stop and /start (issue 14, item 3): a customer who sent /stop gets no broadcast, with a reply
// saying so; /start brings them back, and the next broadcast reaches them.

describe("/stop and /start for broadcasts", () => {
  let telegram: FakeTelegram;
  let shop: ShopWithBot;
  let sender: BroadcastSender;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    shop = await startShopWithConfiguredBot({ telegram, botToken: "7000000021:opt-out-test-token", welcomeMessage: "Welcome to the shop!", withPayments: false });
    const { deps } = shop.server;
    sender = createBroadcastSender(deps, { log: silentLog, soleInstance: true, idlePollMs: 100 });
    sender.start();
  });
  afterAll(async () => {
    await sender?.stop();
    await shop?.close();
    await telegram?.close();
  });

  async function broadcast(text: string) {
    const { db } = shop.server.deps;
    const { id } = await createBroadcast(db, { text, imageUrl: null, audience: { kind: "all" } }, new Date());
    sender.kick();
    await expect.poll(async () => (await getBroadcastProgress(db, id)).status, { timeout: 15_000, interval: 100 }).toBe("done");
    return getBroadcastProgress(db, id);
  }

  it("/stop opts out with a confirmation; /start opts back in", async () => {
    const ann = shop.customer(94_000_001, "ann");
    const bob = shop.customer(94_000_002, "bob");
    await ann.send("/start");
    await bob.send("/start");
    expect(ann.text()).toBe("Welcome to the shop!");

    await ann.send("/stop");
    expect(ann.text()).toBe(OPTED_OUT_REPLY);
    expect(await broadcast("Autumn sale")).toMatchObject({ total: 2, sent: 1, skipped: 1 });
    expect(telegram.messages(ann.user.id).some((m) => m.text === "Autumn sale")).toBe(false);
    expect(telegram.messages(bob.user.id).filter((m) => m.text === "Autumn sale")).toHaveLength(1);

    await ann.send("/start");
    expect(ann.text()).toBe(`Welcome to the shop!\n\n${OPTED_IN_REPLY}`);
    expect(await broadcast("Winter sale")).toMatchObject({ total: 2, sent: 2, skipped: 0 });
    expect(telegram.messages(ann.user.id).filter((m) => m.text === "Winter sale")).toHaveLength(1);
    // A later /start says nothing more than the welcome.
    await ann.send("/start");
    expect(ann.text()).toBe("Welcome to the shop!");
  });

  it("records a known customer's /start without a statement of its own, and a changed username with one", async () => {
    const { db } = shop.server.deps;
    // Counts every statement that tries to insert into bot_customers (an upsert fires BEFORE INSERT
    // triggers even when it ends up changing nothing).
    await db.execute(sql`create table start_upserts (telegram_user_id text)`);
    await db.execute(sql`create function count_start_upsert() returns trigger language plpgsql as $$
      begin insert into start_upserts values (new.telegram_user_id); return new; end $$`);
    await db.execute(sql`create trigger count_start_upsert before insert on bot_customers for each row execute function count_start_upsert()`);
    const upserts = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from start_upserts`))[0];
    try {
      const cara = shop.customer(94_000_003, "cara");
      await cara.send("/start");
      expect(await upserts()).toEqual({ n: 1 });
      await cara.send("/start");
      await cara.send("/start");
      expect(cara.text()).toBe("Welcome to the shop!");
      expect(await upserts()).toEqual({ n: 1 });

      // Same person, new username: recorded again.
      const renamed = shop.customer(94_000_003, "cara_new");
      await renamed.send("/start");
      expect(await upserts()).toEqual({ n: 2 });
      const [row] = await db.select().from(botCustomers).where(eq(botCustomers.telegramUserId, renamed.id));
      expect(row!.telegramUsername).toBe("cara_new");
    } finally {
      await db.execute(sql`drop trigger count_start_upsert on bot_customers`);
    }
  });
});

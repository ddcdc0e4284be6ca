import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { telegramUpdates } from "../db/schema";
import { createTestDatabase } from "../testing/database";
import { botIdOf, pruneUpdates, recordUpdate, UPDATE_IDS_KEPT_MS } from "./update-log";

const BOT = botIdOf("7000000001:first-bot-token");
const OTHER_BOT = botIdOf("7000000002:second-bot-token");

describe("the log of Telegram updates received", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("knows a bot by the number its token starts with", () => {
    expect(BOT).toBe(7000000001);
    expect(botIdOf("not a token")).toBe(0);
  });

  it("answers true once per update id, and forgets ids older than a day", async () => {
    const { db } = database;
    const start = new Date("2025-03-01T12:00:00Z");
    expect(await recordUpdate(db, BOT, 501, start)).toBe(true);
    expect(await recordUpdate(db, BOT, 501, start)).toBe(false);
    // Another bot's update 501 is another update.
    expect(await recordUpdate(db, OTHER_BOT, 501, start)).toBe(true);
    expect(await recordUpdate(db, BOT, 502, new Date(start.getTime() + 60_000))).toBe(true);

    await pruneUpdates(db, new Date(start.getTime() + UPDATE_IDS_KEPT_MS + 1000));
    expect((await db.select().from(telegramUpdates)).map((row) => row.updateId)).toEqual([502]);

    // Pruning also runs by itself, on one update in a hundred.
    expect(await recordUpdate(db, BOT, 600, new Date(start.getTime() + 3 * UPDATE_IDS_KEPT_MS))).toBe(true);
    expect((await db.select().from(telegramUpdates)).map((row) => row.updateId)).toEqual([600]);
  });
});

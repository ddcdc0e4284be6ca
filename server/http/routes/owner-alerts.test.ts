import { beforeEach, describe, expect, it } from "vitest";
import type { OwnerAlerts, OwnerLinkCode } from "../../../contract";
import { ownerAlertSettings } from "../../db/schema";
import { redeemLinkCode } from "../../shop/customers";
import { idleBot, useAdminServer } from "../../../test-support/app";
import { FAKE_BOT_INFO } from "../../../test-support/fake-telegram";

// Owner alerts in Bot Settings (issue 14, item 5): the state, the switches, the link code and Unlink.
// The code's rules (single use, expiry) are in shop/customers/owner-alerts.test.ts; sending in
// telegram/owner-alert-sender.test.ts.

describe("the owner alert routes", () => {
  let clock = new Date("2026-11-25T10:00:00Z");
  const admin = useAdminServer({ deps: { now: () => clock, bot: idleBot({ botInfo: () => FAKE_BOT_INFO }) } });
  const { db, get } = admin;
  const send = (method: string, url: string, body?: unknown) => admin.server.request(method, url, { cookie: admin.cookie, body });
  beforeEach(async () => {
    clock = new Date("2026-11-25T10:00:00Z");
    await db().delete(ownerAlertSettings);
  });

  it("need the admin's session", async () => {
    for (const [method, url] of [
      ["GET", "/api/owner-alerts"],
      ["PUT", "/api/owner-alerts"],
      ["POST", "/api/owner-alerts/link-code"],
      ["DELETE", "/api/owner-alerts/link"],
    ] as const) {
      const response = await admin.server.request(method, url, method === "GET" ? {} : { body: {} });
      expect(response.status, url).toBe(401);
    }
    expect(await db().select().from(ownerAlertSettings)).toEqual([]);
  });

  it("answer not linked, every kind on, before anything was set", async () => {
    const response = await get("/api/owner-alerts");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      linked: false,
      chatTitle: null,
      kinds: { paidOrder: true, customerMessage: true, underpaid: true, lowStock: true },
    });
  });

  it("give a one-time code with the command to send and the bot's username; the chat that sends it is linked", async () => {
    const response = await send("POST", "/api/owner-alerts/link-code");
    expect(response.status).toBe(200);
    const body = (await response.json()) as OwnerLinkCode;
    expect(body.code).toMatch(/^\d{6}$/);
    expect(body).toEqual({ code: body.code, expiresAt: "2026-11-25T10:15:00.000Z", command: `/link ${body.code}`, botUsername: "test_shop_bot" });

    expect(await redeemLinkCode(db(), body.code, { id: "-1001234", title: "Shop staff" }, clock)).toBe(true);
    expect(await (await get("/api/owner-alerts")).json()).toMatchObject({ linked: true, chatTitle: "Shop staff" });

    const unlinked = await send("DELETE", "/api/owner-alerts/link");
    expect(unlinked.status).toBe(200);
    expect(await unlinked.json()).toMatchObject({ linked: false, chatTitle: null });
    expect(await (await get("/api/owner-alerts")).json()).toMatchObject({ linked: false });
  });

  it("switch kinds on and off; a kind left out stays; anything but true or false is refused", async () => {
    const off = await send("PUT", "/api/owner-alerts", { kinds: { lowStock: false, customerMessage: false } });
    expect(off.status).toBe(200);
    expect(((await off.json()) as OwnerAlerts).kinds).toEqual({ paidOrder: true, customerMessage: false, underpaid: true, lowStock: false });
    const on = await send("PUT", "/api/owner-alerts", { kinds: { lowStock: true } });
    expect(((await on.json()) as OwnerAlerts).kinds).toEqual({ paidOrder: true, customerMessage: false, underpaid: true, lowStock: true });

    const bad = await send("PUT", "/api/owner-alerts", { kinds: { lowStock: "no" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("Low stock must be true or false");
    expect((await send("PUT", "/api/owner-alerts", {})).status).toBe(400);
    expect(((await (await get("/api/owner-alerts")).json()) as OwnerAlerts).kinds.lowStock).toBe(true);
  });
});

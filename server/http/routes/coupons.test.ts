import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, coupons } from "../../db/schema";
import { insertProduct } from "../../../test-support/factories";
import { startTestServer, type TestServer, UNKNOWN_ID } from "../../../test-support/app";

// The owner's coupons API (issue 23): GET/POST/PATCH/DELETE /api/coupons.

const COUPON = { code: "summer10", kind: "percent", value: 10 };

describe("coupons API", () => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: unknown) => server.request("POST", "/api/coupons", { cookie, body });
  const patch = (id: string, body: unknown) => server.request("PATCH", `/api/coupons/${id}`, { cookie, body });
  const create = async (body: Record<string, unknown>) => {
    const response = await post(body);
    expect(response.status, await response.clone().text()).toBe(201);
    return response.json();
  };
  const errorOf = async (response: Response, status = 400) => {
    expect(response.status).toBe(status);
    return (await response.json()).error as string;
  };
  const list = async () => (await server.request("GET", "/api/coupons", { cookie })).json();

  it("answers 401 without a session, on every route", async () => {
    expect((await server.request("GET", "/api/coupons")).status).toBe(401);
    expect((await server.request("POST", "/api/coupons", { body: COUPON })).status).toBe(401);
    expect((await server.request("PATCH", `/api/coupons/${UNKNOWN_ID}`, { body: { isActive: false } })).status).toBe(401);
    expect((await server.request("DELETE", `/api/coupons/${UNKNOWN_ID}`)).status).toBe(401);
    expect(await server.database.db.select().from(coupons)).toEqual([]);
  });

  it("creates a coupon in capitals with its uses and state, and lists the newest first", async () => {
    const first = await create(COUPON);
    expect(first).toMatchObject({
      id: expect.any(String),
      code: "SUMMER10",
      kind: "percent",
      value: "10.00",
      minSubtotal: null,
      maxDiscount: null,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      firstOrderOnly: false,
      productIds: [],
      categoryIds: [],
      isActive: true,
      timesUsed: 0,
      timesHeld: 0,
      state: "active",
    });
    const product = await insertProduct(server.database.db);
    const second = await create({
      code: " Tea-5_off ",
      kind: "fixed",
      value: "5",
      minSubtotal: "20",
      maxDiscount: 4.5,
      startsAt: "2099-01-01T00:00:00Z",
      endsAt: "2099-02-01T00:00:00.000+01:00",
      usageLimit: "5",
      perCustomerLimit: 1,
      firstOrderOnly: true,
      productIds: [product.id, product.id],
      isActive: true,
    });
    expect(second).toMatchObject({
      code: "TEA-5_OFF",
      value: "5.00",
      minSubtotal: "20.00",
      maxDiscount: "4.50",
      startsAt: "2099-01-01T00:00:00.000Z",
      endsAt: "2099-01-31T23:00:00.000Z",
      usageLimit: 5,
      perCustomerLimit: 1,
      firstOrderOnly: true,
      productIds: [product.id],
      state: "scheduled",
    });
    expect((await list()).map((coupon: { id: string }) => coupon.id)).toEqual([second.id, first.id]);
  });

  it("refuses a duplicate code whatever its case with 409, also when many arrive at once", async () => {
    await create({ ...COUPON, code: "Dup-Code" });
    expect(await errorOf(await post({ ...COUPON, code: "dup-code" }), 409)).toBe(
      "A coupon with the code DUP-CODE already exists (codes are the same whatever their case).",
    );
    const cases = ["race1", "RACE1", "Race1", "rAcE1", "RACE1 ", " race1", "RaCe1", "race1", "RACE1", "rACE1"];
    const answers = await Promise.all(cases.map((code) => post({ ...COUPON, code })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const other = await create({ ...COUPON, code: "other" });
    expect(await errorOf(await patch(other.id, { code: "race1" }), 409)).toContain("RACE1 already exists");
    const stored = await server.database.db.select().from(coupons).where(eq(coupons.code, "RACE1"));
    expect(stored).toHaveLength(1);
  });

  it("refuses hostile and malformed codes with a 400 naming the field", async () => {
    const hostile = [
      "<script>alert(1)</script>",
      "' OR 1=1 --",
      "a".repeat(33),
      "ab",
      "ÄBCDEF",
      "tea bag",
      "tea\u0000bag",
      "SUMMER\t10",
      "１２３４",
      "%00%00",
      "../../etc",
      "",
      "   ",
    ];
    for (const code of hostile) {
      const error = await errorOf(await post({ ...COUPON, code }));
      expect(error, JSON.stringify(code)).toMatch(/Code (must be 3 to 32 letters, digits, - or _|is required)|Code must not contain NUL characters or unpaired surrogates/);
    }
    for (const code of [null, 42, ["A"], { code: "A" }]) {
      expect(await errorOf(await post({ ...COUPON, code }))).toMatch(/Code/);
    }
    expect((await list()).some((coupon: { code: string }) => coupon.code.includes("<"))).toBe(false);
  });

  it("says which field is wrong", async () => {
    expect(await errorOf(await post({ ...COUPON, code: "pct", value: 101 }))).toContain("A percentage can be at most 100");
    expect(await errorOf(await post({ ...COUPON, code: "zero", value: 0 }))).toContain("Value must be more than 0");
    expect(await errorOf(await post({ ...COUPON, code: "neg", value: "-5" }))).toContain("Value must be more than 0");
    expect(await errorOf(await post({ ...COUPON, code: "kind", kind: "bogo" }))).toContain("Kind must be percent or fixed");
    expect(await errorOf(await post({ ...COUPON, code: "minsub", minSubtotal: "abc" }))).toContain("Minimum subtotal must be an amount");
    expect(await errorOf(await post({ ...COUPON, code: "limit", usageLimit: 0 }))).toContain("Usage limit must be a whole number of at least 1");
    expect(await errorOf(await post({ ...COUPON, code: "limit2", usageLimit: 1.5 }))).toContain("Usage limit must be a whole number");
    expect(
      await errorOf(await post({ ...COUPON, code: "dates", startsAt: "2030-02-01T00:00:00Z", endsAt: "2030-01-01T00:00:00Z" })),
    ).toContain("End must be after the start");
    expect(await errorOf(await post({ ...COUPON, code: "when", startsAt: "next week" }))).toMatch(/^Starts? at must be a date and time such as /);
    expect(await errorOf(await post({ ...COUPON, code: "ghost", productIds: [UNKNOWN_ID] }))).toBe(
      "Some of the chosen products no longer exist. Please choose again.",
    );
    expect(await errorOf(await post({ ...COUPON, code: "ghost2", categoryIds: [UNKNOWN_ID] }))).toBe(
      "Some of the chosen categories no longer exist. Please choose again.",
    );
    expect(await errorOf(await post({ ...COUPON, code: "notid", productIds: ["not-an-id"] }))).toMatch(/product/i);
    const codes = (await list()).map((coupon: { code: string }) => coupon.code);
    for (const code of ["PCT", "ZERO", "NEG", "KIND", "MINSUB", "LIMIT", "LIMIT2", "DATES", "WHEN", "GHOST", "GHOST2", "NOTID"]) {
      expect(codes).not.toContain(code);
    }
  });

  it("changes only the fields given, checked against the coupon as stored", async () => {
    const coupon = await create({ code: "fix150", kind: "fixed", value: 150 });
    const off = await patch(coupon.id, { isActive: false });
    expect(off.status).toBe(200);
    const offBody = await off.json();
    expect(offBody).toMatchObject({ ...coupon, isActive: false, state: "off", updatedAt: expect.any(String) });

    // A fixed £150 cannot become 150 % by switching its kind alone.
    expect(await errorOf(await patch(coupon.id, { kind: "percent" }))).toBe("A percentage can be at most 100.");
    const dated = await patch(coupon.id, { startsAt: "2030-01-01T00:00:00Z", endsAt: "2030-06-01T00:00:00Z" });
    expect(dated.status).toBe(200);
    expect(await errorOf(await patch(coupon.id, { endsAt: "2029-12-31T00:00:00Z" }))).toBe("End must be after the start.");
    expect(await errorOf(await patch(coupon.id, {}))).toContain("Nothing to update");

    // A usage limit cannot go below the uses already held or counted.
    await server.database.db.update(coupons).set({ timesUsed: 2, timesHeld: 1 }).where(eq(coupons.id, coupon.id));
    expect(await errorOf(await patch(coupon.id, { usageLimit: 2 }))).toBe(
      "Usage limit cannot be below 3: the coupon has been used or is held by 3 orders.",
    );
    const limited = await (await patch(coupon.id, { usageLimit: 3, isActive: true, startsAt: null, endsAt: null })).json();
    expect(limited).toMatchObject({ usageLimit: 3, timesUsed: 2, timesHeld: 1, state: "used-up" });
    expect((await list()).find((row: { id: string }) => row.id === coupon.id)).toMatchObject({ timesUsed: 2, state: "used-up" });
    // A patch of one field leaves the others as they are (nothing absent is taken as "none").
    const withMinimum = await (await patch(coupon.id, { minSubtotal: "20", maxDiscount: "9.99" })).json();
    const switched = await (await patch(coupon.id, { isActive: false })).json();
    expect(switched).toMatchObject({ usageLimit: 3, minSubtotal: "20.00", maxDiscount: "9.99", value: "150.00", kind: "fixed", isActive: false });
    expect(withMinimum.minSubtotal).toBe("20.00");
    const cleared = await (await patch(coupon.id, { minSubtotal: "", usageLimit: null })).json();
    expect(cleared).toMatchObject({ minSubtotal: null, usageLimit: null, maxDiscount: "9.99" });
  });

  it("answers 404 for a coupon that is not there and 400 for an id that cannot be one", async () => {
    expect(await errorOf(await patch(UNKNOWN_ID, { isActive: false }), 404)).toBe("Coupon not found.");
    expect(await errorOf(await server.request("DELETE", `/api/coupons/${UNKNOWN_ID}`, { cookie }), 404)).toBe("Coupon not found.");
    expect((await patch("1' OR '1'='1", { isActive: false })).status).toBe(400);
    expect((await server.request("DELETE", "/api/coupons/..%2F..%2Fetc", { cookie })).status).toBe(400);
  });

  it("deletes a coupon; its code can then be used again", async () => {
    const coupon = await create({ ...COUPON, code: "gone" });
    const deleted = await server.request("DELETE", `/api/coupons/${coupon.id}`, { cookie });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true });
    expect((await list()).some((row: { id: string }) => row.id === coupon.id)).toBe(false);
    expect((await server.request("DELETE", `/api/coupons/${coupon.id}`, { cookie })).status).toBe(404);
    await create({ ...COUPON, code: "GONE" });
  });

  it("records each write in the Activity log in the owner's words", async () => {
    const coupon = await create({ code: "words", kind: "fixed", value: "4.5", usageLimit: 5 });
    await patch(coupon.id, { usageLimit: 10, isActive: false });
    await server.request("DELETE", `/api/coupons/${coupon.id}`, { cookie });
    const entries = await server.database.db.select().from(auditLog).where(eq(auditLog.targetId, coupon.id));
    const byAction = Object.fromEntries(entries.map((entry) => [entry.action, entry]));
    expect(byAction["coupon.create"]).toMatchObject({ targetType: "coupon", summary: "Coupon WORDS: £4.50 off, usage limit 5" });
    expect(byAction["coupon.update"]?.summary).toBe("Coupon WORDS: usage limit 5 → 10, status on → off");
    expect(byAction["coupon.delete"]?.summary).toBe("Coupon WORDS");
  });
});

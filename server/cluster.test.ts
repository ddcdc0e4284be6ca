import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeNowPayments, type FakeNowPayments } from "../test-support/fake-nowpayments";
import { startFakeS3, type FakeS3 } from "../test-support/fake-s3";
import {
  callbackUpdate,
  findButton,
  startFakeTelegram,
  telegramUser,
  textUpdate,
  type FakeTelegram,
  type TelegramUser,
} from "../test-support/fake-telegram";
import { TEST_IPN_SECRET, TEST_NOWPAYMENTS_API_KEY } from "../test-support/payments-setup";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../test-support/postgres";
import { callServer, startServerProcess, stopServerProcess, type ServerProcess } from "../test-support/server-process";

// The many-machines path (docs/decisions/0010): two real server processes, each with its own
// DATA_DIR, on one PostgreSQL and one S3-compatible store (s3rver), as behind a load balancer.
// PostgreSQL: TEST_DATABASE_URL, else the one on 127.0.0.1:5432 that every machine of this project runs.

const PASSWORD = "cluster admin password";
const TOKEN = "7000000001:cluster-test-token";
const JOBS_INTERVAL_MS = 1_500;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

type Instance = ServerProcess;

const instances: Instance[] = [];

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const instance = await startServerProcess(name, env);
  instances.push(instance);
  return instance;
}

const call = callServer;

async function ok<T = unknown>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  const text = await answer.text();
  expect(answer.status, text).toBeLessThan(300);
  return (text ? JSON.parse(text) : null) as T;
}

describe("two server processes on one PostgreSQL and one S3 store", () => {
  let database: ThrowawayDatabase;
  let s3: FakeS3;
  let telegram: FakeTelegram;
  let gateway: FakeNowPayments;
  let first: Instance;
  let second: Instance;
  /** The instance polling Telegram, and the one standing by. */
  let leader: Instance;
  let follower: Instance;
  let cookie: string;
  let sharedEnv: Record<string, string>;

  beforeAll(async () => {
    [database, s3, telegram, gateway] = await Promise.all([
      createThrowawayDatabase(),
      startFakeS3(),
      startFakeTelegram(),
      startFakeNowPayments({ apiKey: TEST_NOWPAYMENTS_API_KEY }),
    ]);
    sharedEnv = {
      DATABASE_URL: database.url,
      ADMIN_PASSWORD: PASSWORD,
      // Every instance decrypts the same stored bot token and gateway keys.
      SECRET_KEY: "one secret key for every instance",
      TELEGRAM_API_ROOT: telegram.apiRoot,
      NOWPAYMENTS_API_URL: gateway.url,
      PAYMENT_JOBS_INTERVAL_MS: String(JOBS_INTERVAL_MS),
      ...s3.env,
    };
    // Both start together on the empty database (a deploy of two replicas): migrations run once.
    // No PUBLIC_URL: the bot runs by long polling, which must happen on one instance only.
    [first, second] = await Promise.all([startInstance("first", sharedEnv), startInstance("second", sharedEnv)]);
    const login = await call(first, "POST", "/api/auth/login", { json: { password: PASSWORD } });
    expect(login.status).toBe(200);
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    await ok(
      call(first, "POST", "/api/bot-settings", {
        cookie,
        json: {
          botName: "Cluster Shop",
          botToken: TOKEN,
          acceptedCurrencies: ["BTC"],
          welcomeMessage: "Welcome to the Cluster Shop!",
          faqContent: "FAQ",
          nowpaymentsApiKey: TEST_NOWPAYMENTS_API_KEY,
          nowpaymentsIpnSecret: TEST_IPN_SECRET,
        },
      }),
    );
    // Saved through the first instance: it starts the bot at once; the second sees the new
    // settings within its check interval. One of them polls (almost surely the first), the other
    // stands by, ready to take over.
    const polls = (i: Instance) => /Telegram bot running by long polling/.test(i.output());
    const standsBy = (i: Instance) => /another server instance is polling/.test(i.output());
    await vi.waitFor(
      () => {
        expect([first, second].filter(polls)).toHaveLength(1);
        expect([first, second].filter(standsBy)).toHaveLength(1);
      },
      { timeout: 20_000, interval: 100 },
    );
    [leader, follower] = polls(first) ? [first, second] : [second, first];
  }, 90_000);

  afterAll(async () => {
    for (const instance of instances) await stopServerProcess(instance);
    await Promise.all([telegram?.close(), gateway?.close(), s3?.close()]);
    await database?.drop();
    for (const instance of instances) fs.rmSync(instance.dataDir, { recursive: true, force: true });
  }, 30_000);

  it("keeps the admin signed in on either instance, and signed out on both", async () => {
    expect((await call(second, "GET", "/api/orders", { cookie })).status).toBe(200);
    expect((await call(second, "GET", "/api/orders")).status).toBe(401);

    const other = await call(second, "POST", "/api/auth/login", { json: { password: PASSWORD } });
    const otherCookie = other.headers.get("set-cookie")!.split(";")[0]!;
    expect((await call(first, "GET", "/api/orders", { cookie: otherCookie })).status).toBe(200);
    await ok(call(first, "POST", "/api/auth/logout", { cookie: otherCookie }));
    expect((await call(second, "GET", "/api/orders", { cookie: otherCookie })).status).toBe(401);
  });

  it("serves an image uploaded through one instance from the other, and the catalogue uses it", async () => {
    const { uploadURL } = await ok<{ uploadURL: string }>(call(first, "POST", "/api/objects/upload", { cookie }));
    await ok(call(first, "PUT", uploadURL, { cookie, body: PNG, type: "image/png" }));
    // The confirmation lands on the other instance: it finds the bytes in the shared store.
    const { objectPath } = await ok<{ objectPath: string }>(call(second, "PUT", "/api/product-images", { cookie, json: { imageURL: uploadURL } }));
    const image = await call(second, "GET", objectPath);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
    // Neither instance keeps it on its own disk.
    for (const instance of instances) expect(fs.existsSync(path.join(instance.dataDir, "objects"))).toBe(false);

    const tea = await ok<{ id: string }>(call(second, "POST", "/api/categories", { cookie, json: { name: "Tea" } }));
    await ok(
      call(first, "POST", "/api/products", {
        cookie,
        json: { name: "Sencha", description: "Green tea.", price: "4.99", stock: 20, categoryId: tea.id, imageUrl: objectPath },
      }),
    );
  });

  it("polls Telegram from one instance only", async () => {
    let most = 0;
    for (let sample = 0; sample < 30; sample++) {
      most = Math.max(most, telegram.pollsWaiting());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(most).toBe(1);
    const polling = instances.filter((i) => /Telegram bot running by long polling/.test(i.output()));
    expect(polling).toEqual([leader]);
  });

  it("sells through the polling instance's bot, photo read from the shared store", { timeout: 30_000 }, async () => {
    const paymentId = await buy(telegramUser(82_000_001, "ann"));
    expect(gateway.payments.get(paymentId)).toMatchObject({ price_amount: 4.99, payment_status: "waiting" });
    const photo = telegram.callsOf("sendPhoto").find((c) => Object.values(c.files).some((f) => f.size === PNG.length));
    expect(photo).toBeDefined();
  });

  it("runs the payment sweep once per interval across both instances, not once per instance", { timeout: 30_000 }, async () => {
    const [paymentId] = [...gateway.payments.keys()];
    const checks = () => gateway.statusChecks.filter((c) => c.paymentId === paymentId).map((c) => c.at);
    const from = checks().length;
    await vi.waitFor(() => expect(checks().length - from).toBeGreaterThanOrEqual(4), { timeout: 15_000, interval: 100 });
    const times = checks().slice(from);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    // Two uncoordinated instances would each check every interval, their timers some offset d
    // apart: gaps of d and interval - d, one of them at most half an interval. One run per interval
    // (a tenth early at most), whichever instance it falls to, leaves gaps of about an interval.
    expect(Math.min(...gaps)).toBeGreaterThan(JOBS_INTERVAL_MS * 0.6);
  });

  it("hands polling to the other instance when the leader dies; that one sells and settles payments", { timeout: 45_000 }, async () => {
    leader.child.kill("SIGKILL"); // no goodbye: its database connection just closes
    await leader.exited;
    await follower.waitForOutput(/Telegram bot running by long polling/, 20_000);

    const second_customer = telegramUser(82_000_002, "bob");
    const paymentId = await buy(second_customer);
    expect(gateway.payments.get(paymentId)?.payment_status).toBe("waiting");

    // The first customer's money arrives; no IPN (no PUBLIC_URL): the sweep, now on the survivor, finds it.
    const [firstPayment] = [...gateway.payments.keys()];
    const from = telegram.calls.length;
    gateway.setStatus(firstPayment!, "finished");
    await telegram.waitForCall(
      (c) => c.method === "sendMessage" && String(c.payload.chat_id) === "82000001" && /Payment received/.test(String(c.payload.text)),
      { from, timeoutMs: 15_000 },
    );
    const orders = await ok<{ status: string; telegramUserId: string }[]>(call(follower, "GET", "/api/orders", { cookie }));
    expect(orders.map((o) => [o.telegramUserId, o.status]).sort()).toEqual([
      ["82000001", "processing"],
      ["82000002", "pending"],
    ]);
  });

  /** A customer taps through the bot to a payment, by long polling; answers the gateway's payment id. */
  async function buy(user: TelegramUser): Promise<string> {
    const screenText = () => {
      const screen = telegram.screen(user.id);
      return screen?.text ?? screen?.caption ?? "";
    };
    const until = (pattern: RegExp) => vi.waitFor(() => expect(screenText()).toMatch(pattern), { timeout: 10_000, interval: 20 });
    const send = async (text: string, then: RegExp) => {
      telegram.pushUpdate(textUpdate(user, text));
      await until(then);
    };
    const press = async (label: string, then: RegExp | ((from: number) => Promise<unknown>)) => {
      const screen = telegram.screen(user.id)!;
      const from = telegram.calls.length;
      telegram.pushUpdate(callbackUpdate(user, findButton(screen, label).callback_data!, screen));
      if (then instanceof RegExp) await until(then);
      else await then(from);
    };
    const created = gateway.created.length;

    await send("/start", /^Welcome to the Cluster Shop!/);
    await press("Browse Products", /Choose a category/);
    await press("Tea", /^Tea/);
    await press("Sencha · £4.99", /^Sencha/);
    await press("Add 1 to cart", (from) =>
      telegram.waitForCall((c) => c.method === "answerCallbackQuery" && /Added 1 × Sencha/.test(String(c.payload.text)), { from }),
    );
    await press("🛒 My Cart", /^My Cart/);
    await press("✅ Checkout", /full name/);
    await send(`Customer ${user.id}`, /street address/);
    await send("1 Cluster Road, Leeds", /postcode/);
    await send("LS1 1AA", /contact \(optional\)/);
    await press("Skip", /choose the cryptocurrency/);
    await press("Bitcoin (BTC)", /^Please check your order/);
    await press("✅ Confirm and pay", (from) =>
      telegram.waitForCall(
        (c) => c.method === "sendPhoto" && String(c.payload.chat_id) === String(user.id) && /To pay, send exactly/.test(String(c.payload.caption)),
        { from },
      ),
    );
    expect(gateway.created).toHaveLength(created + 1);
    return [...gateway.payments.keys()].at(-1)!;
  }
});

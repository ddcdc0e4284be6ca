import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressToOpen, createLogger, scrubSecrets } from "./logging";
import { startTestServer, type TestServer } from "../test-support/app";
import { Bot, HttpError } from "grammy";
import { createTelegramNotifier } from "./telegram/notifier";

// Secrets never reach the log (docs/product.md rule 9): with Telegram unreachable, grammY's errors carry
// the request URL .../bot<token>/getMe; the captured log must hold no token, key or password.

const TOKEN = "7000000042:AAHsecretPartOfTheBotToken_x-y";
const API_KEY = "np-api-key-should-never-be-logged";
const IPN_SECRET = "ipn-secret-should-never-be-logged";

describe("logs with Telegram down", () => {
  let server: TestServer;
  const lines: string[] = [];
  const logger = createLogger({ level: "trace", destination: { write: (line: string) => lines.push(line) } });

  beforeAll(async () => {
    // Port 9 (discard) is closed here: every call to Telegram fails to connect.
    server = await startTestServer({ config: { telegramApiRoot: "http://127.0.0.1:9" }, app: { loggerInstance: logger } });
  });
  afterAll(() => server.close());

  it("logs the failures without the bot token, the gateway keys or the password", async () => {
    const cookie = await server.login();
    const saved = await server.request("POST", "/api/bot-settings", {
      cookie,
      body: {
        botName: "Shop",
        botToken: TOKEN,
        acceptedCurrencies: ["BTC"],
        welcomeMessage: "Hi",
        faqContent: "FAQ",
        nowpaymentsApiKey: API_KEY,
        nowpaymentsIpnSecret: IPN_SECRET,
      },
    });
    expect(saved.status).toBe(201);

    // What the bot runner meets when Telegram is down: grammY's HttpError, whose message and
    // nested fetch error carry the request URL with the token; logged as the runner logs it.
    const bot = new Bot(TOKEN, { client: { apiRoot: "http://127.0.0.1:9" } });
    const failure = await bot.api.getMe().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(JSON.stringify(failure, Object.getOwnPropertyNames(failure)) + String(failure)).toContain(TOKEN);
    logger.error({ err: failure }, "Telegram bot: could not run by polling");

    // The notifier's own failure (an admin reply) goes through the request log too.
    const notifier = createTelegramNotifier({ apiRoot: "http://127.0.0.1:9", getToken: async () => TOKEN });
    await notifier.sendMessage("1", "hello").catch((error: unknown) => logger.error({ err: error }, "send failed"));

    const log = lines.join("");
    expect(log).toMatch(/"level":(50|40)/);
    expect(log).toContain("<redacted-token>");
    for (const secret of [TOKEN, TOKEN.split(":")[1]!, API_KEY, IPN_SECRET, "correct horse battery staple"]) {
      expect(log).not.toContain(secret);
    }
  });

  it("redacts cookies, secret fields and what customers told the shop wherever they are logged", () => {
    logger.info({ req: { headers: { cookie: "sid=abc" } }, settings: { botToken: "x", nowpaymentsApiKey: "y" }, password: "p" }, "probe");
    const line = lines.at(-1)!;
    expect(line).not.toContain("sid=abc");
    expect(line).not.toMatch(/"(x|y|p)"/);
    logger.warn(
      {
        order: { shippingAddress: { name: "Ann Lee", streetAddress: "1 Elm Row", postcode: "EH1 1AA" }, telegramUsername: "ann_lee" },
        update: { message: { text: "ring the bell twice" } },
        body: { message: "a reply" },
      },
      "probe",
    );
    const personal = lines.at(-1)!;
    for (const text of ["Ann Lee", "Elm Row", "EH1 1AA", "ann_lee", "ring the bell", "a reply"]) expect(personal).not.toContain(text);
    expect(scrubSecrets("GET https://api.telegram.org/bot123456789:ABCdefGHIjklMNOpqr/getMe")).toBe(
      "GET https://api.telegram.org/bot<redacted-token>/getMe",
    );
  });
});

describe("readable logs", () => {
  it("scrubs the pretty (terminal) form too, and prints it as text, not JSON", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", pretty: true, destination: { write: (line: string) => lines.push(line) } });
    logger.error({ err: new Error(`GET https://api.telegram.org/bot${TOKEN}/getMe failed`) }, `polling failed for bot${TOKEN}`);
    logger.info({ settings: { botToken: TOKEN } }, "saved");
    const output = lines.join("");
    expect(output).toContain("polling failed for bot<redacted-token>");
    expect(output).toMatch(/ERROR/);
    expect(output).not.toContain(TOKEN.split(":")[1]!);
    expect(lines[0]!.startsWith("{")).toBe(false);
  });

  it("logs one line per request with method, path (no query string), status and time", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
    const server = await startTestServer({ app: { loggerInstance: logger } });
    try {
      expect((await server.request("GET", "/api/health?token=should-not-be-logged")).status).toBe(200);
      expect((await server.request("GET", "/api/no-such-call")).status).toBe(404);
    } finally {
      await server.close();
    }
    const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => "path" in entry);
    expect(requests).toEqual([
      expect.objectContaining({ level: 30, method: "GET", path: "/api/health", status: 200, ms: expect.any(Number) }),
      expect.objectContaining({ level: 30, method: "GET", path: "/api/no-such-call", status: 404 }),
    ]);
    expect(requests[0]!.msg).toMatch(/^GET \/api\/health 200 \d+(\.\d)?ms$/);
    const log = lines.join("");
    expect(log).not.toMatch(/incoming request|request completed|not found/);
    expect(log).not.toContain("should-not-be-logged");
  });

  it("names the address a person can open", () => {
    expect(addressToOpen("0.0.0.0", 5000)).toBe("http://localhost:5000");
    expect(addressToOpen("::", 5000)).toBe("http://localhost:5000");
    expect(addressToOpen("127.0.0.1", 41234)).toBe("http://localhost:41234");
    expect(addressToOpen("192.0.2.2", 5000)).toBe("http://192.0.2.2:5000");
    expect(addressToOpen("2001:db8::1", 5000)).toBe("http://[2001:db8::1]:5000");
    expect(addressToOpen("0.0.0.0", 5000, "https://shop.example.com")).toBe("https://shop.example.com");
  });
});

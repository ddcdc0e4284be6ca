import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "../../contract";
import { startTestServer, UNKNOWN_ID, type TestServer } from "../../test-support/app";
import { signInitData, type InitDataUser } from "../../test-support/init-data";
import { createBotSettings } from "../shop/settings";
import { registeredRoutes } from "./security";
import type { StorefrontBudget, StorefrontBudgets } from "./storefront-limits";

// The storefront's budgets of calls (docs/decisions/0041-storefront-rate-limits.md): per customer
// as their validated init data names them, per address for failed sign-ins. Small budgets here so
// the tests stay fast; each test calls as its own customers from its own addresses (X-Forwarded-For,
// believed from 127.0.0.1 as TRUST_PROXY would have it), so no test spends another's budget.

const TOKEN = "7000000041:storefront-limits-token";
const MINUTE = 60_000;
const BUDGETS: StorefrontBudgets = {
  reads: { max: 6, windowMs: MINUTE },
  quote: { max: 3, windowMs: MINUTE },
  orders: { max: 2, windowMs: MINUTE },
  messages: { max: 3, windowMs: MINUTE },
  failedSignIns: { max: 4, windowMs: MINUTE },
};
/** What each storefront route counts against: a route added without a line here fails the first test. */
const ROUTE_BUDGETS: Record<string, StorefrontBudget> = {
  "GET /api/storefront/catalogue": "reads",
  "GET /api/storefront/orders": "reads",
  "GET /api/storefront/orders/:id": "reads",
  "GET /api/storefront/messages": "reads",
  "POST /api/storefront/quote": "quote",
  "POST /api/storefront/orders": "orders",
  "POST /api/storefront/messages": "messages",
};
const ENGLISH = "Too many requests. Please wait a minute and try again.";

let nextUserId = 541_000_000;
const newUser = (extra: Partial<InitDataUser> = {}): InitDataUser => ({ id: ++nextUserId, ...extra });
let nextAddress = 0;
const newAddress = () => `198.51.100.${++nextAddress}`;
const initData = (user: InitDataUser, authDate?: Date) => `tma ${signInitData({ botToken: TOKEN, user, authDate })}`;

type Answer = { status: number; error: string | undefined; retryAfter: string | null; cacheControl: string | null };

describe("the storefront's budgets of calls", () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer({ config: { trustProxy: ["127.0.0.1"] }, app: { storefrontBudgets: BUDGETS } });
    admin = await server.login();
    await createBotSettings(server.database.db, server.deps.secrets, {
      botName: "Limits Shop",
      botToken: TOKEN,
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Welcome!",
      faqContent: "FAQ",
      nowpaymentsApiKey: null,
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
      languages: [...LANGUAGES],
      defaultLanguage: "en",
    });
  });
  afterAll(() => server?.close());

  /** A storefront call with `authorization` (init data or anything else) from `address`. */
  async function call(method: string, url: string, authorization: string | null, address: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { "x-forwarded-for": address, ...(authorization !== null ? { authorization } : {}) };
    const response = await server.request(method, url, { headers, body });
    const text = await response.text();
    return {
      status: response.status,
      error: response.status >= 400 ? (JSON.parse(text) as { error: string }).error : undefined,
      retryAfter: response.headers.get("retry-after"),
      cacheControl: response.headers.get("cache-control"),
    };
  }
  const send = (user: InitDataUser, address: string, message: string) => call("POST", "/api/storefront/messages", initData(user), address, { message });
  /** What the owner's Messages hold of `user` (the texts are stored encrypted: read as the dashboard reads them). */
  const messagesOf = async (user: InitDataUser) =>
    ((await (await server.request("GET", `/api/messages?telegramUserId=${user.id}`, { cookie: admin })).json()) as { message: string }[]).map((row) => row.message);

  /** A refusal for calling too often: 429, when to come back, never cached, and `sentence`. */
  function expectTooMany(answer: Answer, sentence: string, what = "") {
    expect([answer.status, answer.error], what).toEqual([429, sentence]);
    expect(Number(answer.retryAfter), `${what} Retry-After ${answer.retryAfter}`).toBeGreaterThanOrEqual(1);
    expect(Number(answer.retryAfter), what).toBeLessThanOrEqual(60);
    expect(answer.cacheControl, what).toBe("no-store");
  }

  it("counts every storefront route against its declared budget, before the body is read or checked", async () => {
    const routes = registeredRoutes(server.app).filter((route) => route.access === "storefront" && route.method !== "HEAD");
    expect(routes.map((route) => `${route.method} ${route.url}`).sort()).toEqual(Object.keys(ROUTE_BUDGETS).sort());
    const address = newAddress();
    for (const route of routes) {
      // A fresh customer per route: the reads' routes share one budget.
      const user = newUser();
      const budget = BUDGETS[ROUTE_BUDGETS[`${route.method} ${route.url}`]!];
      const url = route.url.replace(":id", UNKNOWN_ID);
      // An empty body: every call within the budget is refused by the route's own check (400), or a 404
      // or a 200; the one after it is refused by the budget, so the count came first.
      const answers: Answer[] = [];
      for (let i = 0; i <= budget.max; i++) answers.push(await call(route.method, url, initData(user), address, route.method === "POST" ? {} : undefined));
      const what = `${route.method} ${route.url}`;
      for (const answer of answers.slice(0, -1)) expect(answer.status, `${what}: ${answer.error}`).not.toBe(429);
      expectTooMany(answers.at(-1)!, ENGLISH, what);
    }
  });

  it("documents the 429 and its Retry-After on every storefront route", async () => {
    type Operation = { responses: Record<string, { headers?: Record<string, unknown> }> };
    const document = (await (await server.request("GET", "/api/openapi.json", { cookie: admin })).json()) as { paths: Record<string, Record<string, Operation>> };
    for (const key of Object.keys(ROUTE_BUDGETS)) {
      const [method, url] = key.split(" ") as [string, string];
      const answer = document.paths[url.replace(":id", "{id}")]?.[method.toLowerCase()]?.responses["429"];
      expect(Object.keys(answer?.headers ?? {}), key).toEqual(["Retry-After"]);
    }
  });

  it("refuses a customer over their budget with 429 in their language, while another customer at the same address is served", async () => {
    const german = newUser({ languageCode: "de" });
    const address = newAddress();
    for (let i = 1; i <= BUDGETS.messages.max; i++) expect((await send(german, address, `Question ${i}`)).status).toBe(201);
    expectTooMany(await send(german, address, "One more"), "Zu viele Anfragen. Bitte warte eine Minute und versuche es dann noch einmal.");
    // Nothing of the refused one reached the owner's Messages.
    expect((await messagesOf(german)).sort()).toEqual(["Question 1", "Question 2", "Question 3"]);
    // Their other kinds of call have budgets of their own...
    expect((await call("GET", "/api/storefront/messages", initData(german), address)).status).toBe(200);
    // ...and another customer, from the same address at the same time, has theirs.
    const neighbour = newUser();
    expect((await send(neighbour, address, "Hello")).status).toBe(201);
  });

  it("says it in each of the shop's languages", async () => {
    const sentences = new Map<string, string>();
    for (const language of LANGUAGES) {
      const user = newUser({ languageCode: language });
      const address = newAddress();
      let last: Answer | undefined;
      for (let i = 0; i <= BUDGETS.quote.max; i++) last = await call("POST", "/api/storefront/quote", initData(user), address, {});
      expect(last!.status, language).toBe(429);
      sentences.set(language, last!.error!);
    }
    expect(sentences.get("en")).toBe(ENGLISH);
    expect(sentences.get("fr")).toBe("Trop de demandes. Veuillez patienter une minute, puis réessayer.");
    // Six different sentences: none fell back to English.
    expect(new Set(sentences.values()).size).toBe(LANGUAGES.length);
  });

  it("counts under the Telegram user the init data proves: another launch's init data or another address shares the budget, forged init data naming them costs them nothing", async () => {
    const user = newUser();
    // Two launches of the Mini App: two different init data, each validly signed, of one user.
    const launches = [initData(user), initData(user, new Date(Date.now() - 60_000))];
    expect(launches[0]).not.toBe(launches[1]);
    for (let i = 0; i < BUDGETS.reads.max; i++) {
      expect((await call("GET", "/api/storefront/catalogue", launches[i % 2]!, newAddress())).status).toBe(200);
    }
    for (const launch of launches) expectTooMany(await call("GET", "/api/storefront/orders", launch, newAddress()), ENGLISH);

    // Init data changed to name a victim is refused as a failed sign-in of its address, not counted as the victim's call.
    const victim = newUser();
    const signer = newUser();
    const forged = signInitData({ botToken: TOKEN, user: signer }).replace(encodeURIComponent(`"id":${signer.id}`), encodeURIComponent(`"id":${victim.id}`));
    expect(forged).toContain(encodeURIComponent(`"id":${victim.id}`));
    const attacker = newAddress();
    for (let i = 0; i < BUDGETS.reads.max + 2; i++) expect((await call("GET", "/api/storefront/catalogue", `tma ${forged}`, attacker)).status).not.toBe(200);
    for (let i = 0; i < BUDGETS.reads.max; i++) expect((await call("GET", "/api/storefront/catalogue", initData(victim), newAddress())).status).toBe(200);
  });

  it("limits the failed sign-ins of an address: 401s up to its budget, then 429 even for right init data; other addresses and the dashboard are served", async () => {
    const address = newAddress();
    const user = newUser();
    const wrong = [
      "tma not-init-data-at-all",
      `tma ${signInitData({ botToken: "7000000099:another-bots-token", user })}`,
      `tma ${signInitData({ botToken: TOKEN, user, authDate: new Date(Date.now() - 25 * 3600_000) })}`,
      null,
    ];
    expect(wrong.length).toBe(BUDGETS.failedSignIns.max);
    for (const authorization of wrong) expect((await call("GET", "/api/storefront/catalogue", authorization, address)).status).toBe(401);
    // Spent: refused before the init data is looked at, in the shop's default language (who calls is not known).
    expectTooMany(await call("GET", "/api/storefront/catalogue", "tma guess", address), ENGLISH, "a guess");
    expectTooMany(await call("POST", "/api/storefront/messages", initData(user), address, { message: "Hi" }), ENGLISH, "right init data");
    expect(await messagesOf(user)).toEqual([]);
    // The same customer from elsewhere is served, and the address's own customers' budgets are untouched.
    expect((await call("GET", "/api/storefront/catalogue", initData(user), newAddress())).status).toBe(200);
    // The dashboard is not limited by any of this, from that address or at all.
    for (let i = 0; i < BUDGETS.reads.max * 2; i++) {
      const response = await server.request("GET", "/api/orders", { cookie: admin, headers: { "x-forwarded-for": address } });
      expect(response.status).toBe(200);
      expect(response.headers.get("retry-after")).toBeNull();
      await response.body?.cancel();
    }
  });

  it("counts an IPv6 client by its /64", async () => {
    const flood = ["2001:db8:41:7::1", "2001:db8:41:7::2", "2001:db8:41:7:ffff:ffff:ffff:ffff", "2001:db8:41:7:1:2:3:4"];
    for (const address of flood) expect((await call("GET", "/api/storefront/catalogue", "tma forged", address)).status).toBe(401);
    expectTooMany(await call("GET", "/api/storefront/catalogue", "tma forged", "2001:db8:41:7::99"), ENGLISH);
    expect((await call("GET", "/api/storefront/catalogue", "tma forged", "2001:db8:41:8::1")).status).toBe(401);
  });

  it("lets exactly the budget through when calls come all at once", async () => {
    const user = newUser();
    const address = newAddress();
    const sent = await Promise.all(Array.from({ length: 10 }, (_, i) => send(user, address, `At once ${i}`)));
    expect(sent.filter((answer) => answer.status === 201).length).toBe(BUDGETS.messages.max);
    expect(sent.filter((answer) => answer.status === 429).length).toBe(10 - BUDGETS.messages.max);
    expect((await messagesOf(user)).length).toBe(BUDGETS.messages.max);

    const guesser = newAddress();
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => call("GET", "/api/storefront/catalogue", `tma guess-${i}`, guesser)));
    expect(guesses.filter((answer) => answer.status === 401).length).toBe(BUDGETS.failedSignIns.max);
    expect(guesses.filter((answer) => answer.status === 429).length).toBe(12 - BUDGETS.failedSignIns.max);
  });
});

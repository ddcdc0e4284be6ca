import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "../../test-support/app";
import { recordOrderEvent } from "../shop/orders";
import { fillPath, SEEDED_BOT_TOKEN, seedShop, type ShopIds } from "../../test-support/attack";
import { signInitData } from "../../test-support/init-data";
import { DOCS_PREFIX, OPENAPI_PATH, STOREFRONT_SCHEME } from "./openapi";
import { registeredRoutes } from "./security";

// The API reference (issue 11, item 4): GET /api/openapi.json documents every route the app
// registers, and what the routes answer matches what the document says they answer. The answers
// are checked against the document itself (its JSON Schemas turned back into zod), so a schema
// that drifts from the handlers, or a document that drifts from the schemas, fails here.

type Header = { description?: string; schema?: unknown };
type Operation = {
  summary?: string;
  parameters?: { in: string; name: string }[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, Header> }>;
  security?: unknown[];
  "x-permission"?: string;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/** Fastify's /api/orders/:id as OpenAPI writes it: /api/orders/{id}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, "{$1}");

/** The routes of the reference itself (swagger-ui's page and files): they serve the document, they are not in it. */
const isDocsUi = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

/** The documented answer for a status: its own entry, else its class ("4XX"). */
function documentedAnswer(operation: Operation, status: number) {
  const responses = operation.responses ?? {};
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`];
}

/** A zod validator for a JSON Schema of the document, its component references resolved. */
function validatorFor(document: Document, schema: unknown) {
  const local = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
  const defs = JSON.parse(JSON.stringify(document.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
  return z.fromJSONSchema({ ...local, $defs: defs } as Parameters<typeof z.fromJSONSchema>[0]);
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(56).fill(0)]);

describe("the OpenAPI document", () => {
  let server: TestServer;
  let cookie: string;
  let ids: ShopIds;
  let document: Document;
  let objectId: string;
  /** A staff invite's token, so GET /api/staff/invites/{token} answers its greeting (issue 25). */
  let inviteToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    cookie = await server.login();
    ids = await seedShop(server, cookie);
    await recordOrderEvent(server.database.db, { orderId: ids.order, actor: "system", action: "expired", detail: "Expired." }, new Date());
    // One stored image, so GET /objects/{id} answers its bytes.
    const { uploadURL } = (await (await server.request("POST", "/api/objects/upload", { cookie, body: {} })).json()) as { uploadURL: string };
    const stored = await fetch(server.baseUrl + uploadURL, { method: "PUT", headers: { cookie, "content-type": "image/png" }, body: PNG });
    objectId = ((await stored.json()) as { objectPath: string }).objectPath.replace("/objects/", "");
    const invited = await server.request("POST", "/api/staff", { cookie, body: { username: "documented", name: "Documented", role: "packer" } });
    inviteToken = new URL(((await invited.json()) as { inviteUrl: string }).inviteUrl).pathname.replace("/invite/", "");
    const response = await server.request("GET", OPENAPI_PATH, { cookie });
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(() => server.close());

  it("is OpenAPI 3.1 and needs the admin, like the rendered reference", async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    for (const path of [OPENAPI_PATH, DOCS_PREFIX, `${DOCS_PREFIX}/json`]) {
      const anonymous = await server.request("GET", path);
      expect(anonymous.status, path).toBe(401);
      expect(((await anonymous.json()) as { error: string }).error).toBe("Not logged in.");
    }
  });

  it("documents every route the app registers, each with its success answer's schema and the { error } answers", () => {
    const routes = registeredRoutes(server.app).filter((route) => route.method !== "HEAD" && !isDocsUi(route.url));
    expect(routes.length).toBeGreaterThan(35);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${openApiPath(route.url)}`).sort());

    for (const route of routes) {
      const what = `${route.method} ${route.url}`;
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, what).toBeDefined();
      expect(operation!.summary, `${what}: add a line to SUMMARIES in server/http/openapi.ts`).toBeTruthy();
      const success = Object.entries(operation!.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
      expect(success.length, what).toBeGreaterThan(0);
      for (const [, answer] of success) {
        const content = Object.values(answer.content ?? {});
        expect(content.length, what).toBeGreaterThan(0);
        for (const media of content) expect(Object.keys(media.schema ?? {}).length, what).toBeGreaterThan(0);
      }
      expect(operation!.responses?.["4XX"]?.content?.["application/json"]?.schema, what).toEqual({ $ref: "#/components/schemas/ApiError" });
      // The open routes say so; the storefront's need Telegram's init data; the others the session cookie the document's security scheme names.
      expect(operation!.security, what).toEqual(route.access === "admin" ? undefined : route.access === "storefront" ? [{ [STOREFRONT_SCHEME]: [] }] : []);
      // ...and a role with the route's permission (contract/team.ts), "owner" when it names none.
      expect(operation!["x-permission"], what).toBe(route.access === "admin" ? (route.permission ?? "owner") : undefined);
    }
  });

  it("describes what every GET route answers for a seeded shop", async () => {
    const gets = registeredRoutes(server.app).filter((route) => route.method === "GET" && !isDocsUi(route.url));
    expect(gets.length).toBeGreaterThan(12);
    for (const route of gets) {
      const path =
        route.url === "/objects/:id"
          ? `/objects/${objectId}`
          : route.url === "/api/staff/invites/:token"
            ? `/api/staff/invites/${inviteToken}`
            : route.url === "/api/storefront/orders/:id"
              ? `/api/storefront/orders/${ids.order}`
              : fillPath(route.url, ids);
      // The storefront's calls as the seeded order's customer (issue 27), signed with the seeded bot token.
      const storefront = route.access === "storefront" ? { authorization: `tma ${signInitData({ botToken: SEEDED_BOT_TOKEN, user: { id: Number(ids.customer) } })}` } : undefined;
      const response = await server.request("GET", path, { cookie, headers: storefront });
      const what = `GET ${path}: ${response.status}`;
      expect(response.status, what).toBe(200);
      const operation = document.paths[openApiPath(route.url)]!.get!;
      const contentType = response.headers.get("content-type")!.split(";")[0]!;
      const media = documentedAnswer(operation, response.status)?.content?.[contentType];
      expect(media?.schema, `${what} answered ${contentType}, which the document does not list`).toBeDefined();
      if (contentType !== "application/json") continue;
      const body: unknown = await response.json();
      // Lists must hold something, or the item schema would go unchecked.
      if (Array.isArray(body)) expect(body.length, what).toBeGreaterThan(0);
      const result = validatorFor(document, media!.schema).safeParse(body);
      expect(result.error?.issues, `${what} ${JSON.stringify(body).slice(0, 500)}`).toBeUndefined();
    }
  });

  it("declares the paging headers on every list that takes limit, and the answers carry them as declared", async () => {
    // A second product, so one paged list has a next page (a Link header) to check.
    const second = await server.request("POST", "/api/products", { cookie, body: { name: "Matcha", description: "Green", price: "9.99", stock: 3 } });
    expect(second.status).toBe(201);
    const paged = Object.entries(document.paths).flatMap(([path, operations]) =>
      operations.get?.parameters?.some((p) => p.in === "query" && p.name === "limit") ? [[path, operations.get] as const] : [],
    );
    expect(paged.map(([path]) => path).sort()).toEqual(["/api/audit-log", "/api/customers", "/api/messages", "/api/messages/conversations", "/api/orders", "/api/products"]);
    let linksSeen = 0;
    for (const [path, operation] of paged) {
      const headers = operation.responses?.["200"]?.headers ?? {};
      expect(Object.keys(headers).sort(), path).toEqual(["Link", "X-Total-Count"]);
      for (const header of Object.values(headers)) expect(header.description, path).toBeTruthy();
      const response = await server.request("GET", `${path}?limit=1`, { cookie });
      expect(response.status, path).toBe(200);
      const total = response.headers.get("x-total-count");
      expect(total, path).not.toBeNull();
      expect(validatorFor(document, headers["X-Total-Count"]!.schema).safeParse(Number(total)).success, `${path}: ${total}`).toBe(true);
      const link = response.headers.get("link");
      if (link !== null) {
        linksSeen++;
        expect(validatorFor(document, headers.Link!.schema).safeParse(link).success, path).toBe(true);
        expect(link, path).toMatch(new RegExp(`^<${path}\\?limit=1&cursor=[^>]+>; rel="next"$`));
      }
    }
    expect(linksSeen).toBeGreaterThan(0);
    // A list that is never paged declares no paging headers.
    expect(document.paths["/api/messages/user/{telegramUserId}"]!.get!.responses?.["200"]?.headers).toBeUndefined();
  });

  it("describes the error answers, and a document that describes nothing would fail the check", async () => {
    const missing = await server.request("GET", "/api/orders/00000000-0000-4000-8000-000000000000/items", { cookie });
    expect(missing.status).toBe(404);
    const operation = document.paths["/api/orders/{id}/items"]!.get!;
    const schema = documentedAnswer(operation, 404)!.content!["application/json"]!.schema;
    expect(validatorFor(document, schema).safeParse(await missing.json()).success).toBe(true);
    // The check is not vacuous: an answer of another shape is refused.
    const items = documentedAnswer(operation, 200)!.content!["application/json"]!.schema;
    expect(validatorFor(document, items).safeParse([{ id: "x" }]).success).toBe(false);
  });
});

import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyReply } from "fastify";
import { STOREFRONT_PATH } from "../../contract";
import { projectRoot } from "../project-root";
import type { Routes } from "./deps";
import { PUBLIC } from "./security";

/** Where `vite build` puts the web app (vite.config.ts); named from the project folder, as this also runs bundled. */
export const WEB_DIST_DIR = path.join(projectRoot(import.meta.dirname), "dist/web");

// Hashed file names change whenever their content does, so browsers may keep them for good;
// index.html names the current ones, so it is revalidated on every load.
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/**
 * Paths that never fall back to the app: the API and stored objects keep their JSON 404s, however
 * the path is spelled (/%61pi/x, //api/x, /x/../api/x all name the API, never the web app).
 */
function isServerPath(url: string): boolean {
  let decoded: string;
  try {
    // An absolute-form target (GET http://host/api/x HTTP/1.1) names the path after its authority.
    decoded = decodeURIComponent(url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ""));
  } catch {
    return true;
  }
  const normalized = path.posix.normalize(decoded.replaceAll("\\", "/")).replace(/^\/+/, "/").toLowerCase();
  return ["/api", "/objects"].some((prefix) => normalized === prefix || normalized.startsWith(`${prefix}/`));
}

/** The storefront Mini App's page in the build (vite.config.ts's second entry; scripts/build-web.ts STOREFRONT_PAGE). */
const STOREFRONT_PAGE = "storefront/index.html";

/**
 * Whether a request is for the storefront Mini App's page (issue 27): /shop/ and anything under it,
 * spelled exactly so. The page is served, and may be framed by Telegram (headers.ts), only on this
 * spelling: /%73hop/ or /x/../shop/ get the dashboard's page under the dashboard's headers, never
 * a framable dashboard.
 */
export function isStorefrontPage(url: string): boolean {
  const pathname = url.split("?")[0]!;
  return pathname === STOREFRONT_PATH.slice(0, -1) || pathname.startsWith(STOREFRONT_PATH);
}

/**
 * Serves the built web app: its files, the storefront Mini App's page for /shop/ and anything under
 * it (/shop itself is sent to /shop/, where the page's relative links work), and the dashboard's
 * index.html for any other GET path that is not the API's (client-side routes such as /orders).
 * Without a build it says how to make one.
 */
export function createWebRoutes(distDir: string = WEB_DIST_DIR): Routes {
  return async (app) => {
    await app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up per request by the route below (not listed once at start-up), so a
      // rebuild while the server runs is served at once.
      serve: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        const isAsset = path.relative(distDir, filePath).startsWith(`assets${path.sep}`);
        reply.header("Cache-Control", isAsset ? IMMUTABLE : REVALIDATE);
        reply.header("X-Content-Type-Options", "nosniff");
      },
    });

    app.get("/*", PUBLIC, (request, reply) => {
      const url = request.url.split("?")[0]!;
      if (isServerPath(url)) return reply.callNotFound();
      if (isStorefrontPage(url)) {
        // Telegram opens the URL the bot names with the launch parameters in the hash, which the
        // browser keeps across this redirect.
        if (!url.startsWith(STOREFRONT_PATH)) return reply.redirect(`${STOREFRONT_PATH}${request.url.slice(url.length)}`, 302);
        if (!builtFile(distDir, `/${STOREFRONT_PAGE}`)) return notBuilt(reply);
        return reply.sendFile(STOREFRONT_PAGE);
      }
      const file = builtFile(distDir, url);
      if (file) return reply.sendFile(file);
      // A missing hashed file (an old tab after a deploy) is a real 404, not the app.
      if (url.startsWith("/assets/")) return reply.callNotFound();
      if (!builtFile(distDir, "/index.html")) return notBuilt(reply);
      return reply.sendFile("index.html");
    });
  };
}

function notBuilt(reply: FastifyReply) {
  return reply.code(503).type("text/plain").send("The web app is not built yet: run `npm run build` (or `npm start`, which builds it).");
}

/** The built file a URL names (relative to distDir), or null; never anything outside distDir. */
function builtFile(distDir: string, url: string): string | null {
  let relative: string;
  try {
    relative = path.normalize(decodeURIComponent(url)).replace(/^[/\\]+/, "");
  } catch {
    return null;
  }
  if (!relative || relative.startsWith("..")) return null;
  try {
    return fs.statSync(path.join(distDir, relative)).isFile() ? relative : null;
  } catch {
    return null;
  }
}

export const webRoutes: Routes = createWebRoutes();

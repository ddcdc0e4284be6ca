import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { build } from "vite";

const root = path.resolve(import.meta.dirname, "..");
export const WEB_DIST = path.join(root, "dist/web");
/** What the web build is made from; a change to any of these makes the build stale. */
const SOURCES = ["web", "contract", "vite.config.ts", "package-lock.json"].map((p) => path.join(root, p));

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/web is missing or older than any of its sources. */
export function webBuildIsStale(): boolean {
  const index = path.join(WEB_DIST, "index.html");
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built);
}

/**
 * Gzip and Brotli copies next to each text asset: the server sends them to browsers that accept
 * them (@fastify/static preCompressed), with no compression work per request.
 */
function precompress(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
    const data = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** The scripts an HTML page of the build loads at once: its entry and what it preloads with it. */
function pageScripts(dist: string, page: string): string[] {
  const html = fs.readFileSync(path.join(dist, page), "utf8");
  return [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]!);
}

/**
 * The JavaScript the login screen needs: the entry script and what index.html preloads with it
 * (everything behind the login is lazy). Answers the files and their total gzipped size.
 */
export function loginScriptSize(dist = WEB_DIST): { files: string[]; gzipBytes: number } {
  const files = pageScripts(dist, "index.html");
  const gzipBytes = files.reduce((sum, file) => sum + gzipSize(path.join(dist, file)), 0);
  return { files, gzipBytes };
}

/** Where the storefront Mini App's page lands in the build (vite.config.ts; served at /shop/ by server/http/web.ts). */
export const STOREFRONT_PAGE = "storefront/index.html";

/**
 * All the JavaScript the storefront Mini App can ever load (issue 27's budget): its page's scripts
 * and every chunk they name, followed to the end, lazy ones too. Answers the files and their total
 * gzipped size.
 */
export function storefrontScriptSize(dist = WEB_DIST): { files: string[]; gzipBytes: number } {
  const assets = new Set(fs.readdirSync(path.join(dist, "assets")).filter((name) => name.endsWith(".js")));
  const found = new Set(pageScripts(dist, STOREFRONT_PAGE).map((file) => path.posix.basename(file)));
  for (const file of found) {
    // A chunk names another by its file name: `from"./x-abc.js"`, `import("./x-abc.js")`, or Vite's preload list.
    const code = fs.readFileSync(path.join(dist, "assets", file), "utf8");
    for (const [, name] of code.matchAll(/["'`/]([\w.-]+\.js)["'`]/g)) if (assets.has(name!)) found.add(name!);
  }
  const files = [...found].map((name) => `/assets/${name}`);
  const gzipBytes = files.reduce((sum, file) => sum + gzipSize(path.join(dist, file)), 0);
  return { files, gzipBytes };
}

export async function buildWeb({ quiet = false }: { quiet?: boolean } = {}) {
  // Built beside dist/web and swapped in at the end: a server (or a browser test) reading dist/web
  // meanwhile keeps a whole build instead of a half-emptied folder.
  const next = `${WEB_DIST}.next`;
  const old = `${WEB_DIST}.old`;
  await build({
    configFile: path.join(root, "vite.config.ts"),
    logLevel: quiet ? "warn" : "info",
    build: { outDir: next, emptyOutDir: true },
  });
  precompress(next);
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(WEB_DIST)) fs.renameSync(WEB_DIST, old);
  fs.renameSync(next, WEB_DIST);
  fs.rmSync(old, { recursive: true, force: true });
  if (!quiet) {
    console.log(`Login screen JavaScript: ${(loginScriptSize().gzipBytes / 1024).toFixed(1)} kB gzipped.`);
    console.log(`Storefront (/shop/) JavaScript: ${(storefrontScriptSize().gzipBytes / 1024).toFixed(1)} kB gzipped.`);
  }
}

/** Builds only when needed; answers whether it built. */
export async function ensureWebBuild(options: { quiet?: boolean } = {}): Promise<boolean> {
  if (!webBuildIsStale()) return false;
  if (!options.quiet) console.log("Building the web app (dist/web is missing or older than its sources)...");
  await buildWeb(options);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWeb();
}

// Whether dist/ needs building: `npm start` (scripts/start.mjs) and the benchmark (scripts/bench/run.mjs)
// decide it the same way. Plain JavaScript: `npm start` loads nothing but node before the server.
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const SERVER_BUNDLE = path.join(ROOT, "dist/server/main.js");
const WEB_INDEX = path.join(ROOT, "dist/web/index.html");
/** What dist/ is made from; a change to any of these (tests aside) makes the build stale. */
const SOURCES = ["server", "contract", "web", "drizzle", "package-lock.json", "vite.config.ts"];

/** The newest modification time under `target` (0 when it does not exist), test files aside. */
function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(target) ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function builtAt() {
  try {
    return Math.min(fs.statSync(SERVER_BUNDLE).mtimeMs, fs.statSync(WEB_INDEX).mtimeMs);
  } catch {
    return 0; // something is missing
  }
}

/** True when dist/ is missing or older than any of its sources. */
export function buildIsStale() {
  const built = builtAt();
  return built === 0 || SOURCES.some((source) => newestMtime(path.join(ROOT, source)) > built);
}

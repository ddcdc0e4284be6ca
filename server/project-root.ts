import fs from "node:fs";
import path from "node:path";

/**
 * The project folder (the one holding package.json), found by walking up from `from`.
 * The server runs both as TypeScript (server/db/client.ts, server/http/web.ts) and as one bundle
 * (dist/server/main.js, where every module's import.meta.dirname is dist/server), so files beside
 * the code (drizzle/ migrations, dist/web) are named from the project folder, not from the module.
 */
export function projectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}: cannot find the project folder.`);
  }
}

import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { BUNDLE_OPTIONS } from "../scripts/build-server";

// The server and the maintenance scripts bundled once per test run (vitest's and Playwright's global
// set-ups), for the tests that start them as processes: plain `node` on a bundle starts in about a
// third of the CPU time of `node --import tsx` on the sources, which compiles hundreds of modules
// at every start (~0.6-0.9 CPU-s a process quiet, over 1.5 s busy; some 50 processes a run;
// docs/PERFORMANCE.md "Sixth round"). They are bundled as `npm run build` bundles the server
// (scripts/build-server.ts), into a folder inside the project so their packages resolve to its
// node_modules. What tsx runs keeps its tests: server/main.test.ts runs a script as `npm run` does.

/** Names the bundles' folder for the test processes and what they spawn (set by the global set-ups). */
export const TEST_BUNDLES_ENV = "SHOP_TEST_BUNDLES";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The entry points the tests start as processes; each is bundled to the same path under the folder, .js. */
export const BUNDLED_ENTRIES = [
  "server/main.ts",
  "scripts/admin-password.ts",
  "scripts/backup.ts",
  "scripts/restore.ts",
  "scripts/keys-rotate.ts",
  "scripts/secrets-forget.ts",
  "scripts/seed-demo.ts",
  "e2e/support/server.ts",
] as const;
export type BundledEntry = (typeof BUNDLED_ENTRIES)[number];

/**
 * Bundles every entry into a new folder under dist/, names it in TEST_BUNDLES_ENV for this process
 * and the processes it starts, and answers `rebuild` (after a source changed: vitest's watch mode)
 * and `remove`.
 */
export async function createTestBundles(): Promise<{ rebuild: () => Promise<void>; remove: () => void }> {
  fs.mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const folder = fs.mkdtempSync(path.join(ROOT, "dist", "test-bundles-"));
  const rebuild = async () => {
    await build({ ...BUNDLE_OPTIONS, entryPoints: BUNDLED_ENTRIES.map((entry) => path.join(ROOT, entry)), outbase: ROOT, outdir: folder });
  };
  await rebuild();
  process.env[TEST_BUNDLES_ENV] = folder;
  return {
    rebuild,
    remove: () => {
      if (process.env[TEST_BUNDLES_ENV] === folder) delete process.env[TEST_BUNDLES_ENV];
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The bundle of an entry point (e.g. "scripts/backup.ts"), to run with plain `node`. */
export function bundled(entry: BundledEntry): string {
  const folder = process.env[TEST_BUNDLES_ENV];
  // Not a silent fallback to tsx: that would bring the cost back unseen.
  if (!folder) throw new Error(`${TEST_BUNDLES_ENV} is not set: run the tests through vitest or Playwright, whose global set-up builds the bundles.`);
  return path.join(folder, entry.replace(/\.ts$/, ".js"));
}

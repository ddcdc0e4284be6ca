import path from "node:path";
import { build, type BuildOptions } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
export const SERVER_BUNDLE = path.join(root, "dist/server/main.js");

/**
 * How the server is bundled: one ESM file that plain `node` runs, no tsx at run time, one file to
 * load instead of hundreds (decision 0008). Packages from node_modules stay imports: PGlite finds its
 * wasm and data files next to its own code, and pg's optional native parts are loaded by pg itself.
 * The bundle must live inside the project folder, so those imports resolve to its node_modules and
 * server/project-root.ts finds drizzle/ and dist/web. The tests bundle the maintenance scripts the
 * same way (test-support/bundles.ts).
 */
export const BUNDLE_OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  // Readable stack traces without source maps: names and layout kept, each module headed by its path.
  minify: false,
  logLevel: "warning",
} satisfies BuildOptions;

/** Bundles the server (server/, contract/) into `outfile` (dist/server/main.js for `npm start`). */
export async function buildServer({ outfile = SERVER_BUNDLE }: { outfile?: string } = {}) {
  await build({ ...BUNDLE_OPTIONS, entryPoints: [path.join(root, "server/main.ts")], outfile });
}

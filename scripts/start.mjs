// `npm start`: runs the built server with plain node (decision 0008). Plain JavaScript, so nothing
// but node itself is loaded before the server: no tsx, no Vite.
//
// When dist/ is missing or older than its sources (a fresh clone, a `git pull`), the build runs
// first in a child process (`npm run build`), so `npm install && npm start` just works and the
// build's memory (Vite, Tailwind, esbuild: hundreds of MB) is returned to the system before the
// server starts. The server then runs in this process: no extra node process sits beside it.
import { spawnSync } from "node:child_process";
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildIsStale, ROOT as root, SERVER_BUNDLE } from "./build-freshness.mjs";

if (buildIsStale()) {
  console.log("Building the app first (dist/ is missing or older than its sources)...");
  // The build is TypeScript (scripts/build.ts, Vite's config): run through tsx, in its own process.
  const build = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/build.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) {
    console.error("The build failed (see above); the server was not started.");
    process.exit(build.status ?? 1);
  }
}

// Node 22.1+ keeps V8's compiled code of the server and its packages between starts (in the
// system's temp folder), which shortens the loading part of a start; Node 20 has no such cache.
module.enableCompileCache?.();
await import(pathToFileURL(SERVER_BUNDLE).href);

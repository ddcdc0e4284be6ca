import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPglite } from "../server/db/client";

// A migrated PGlite DATA_DIR made once per test run (vitest's and Playwright's global set-ups), which
// the real server processes of the tests start from: a copy of its folder takes well under a second
// where a new one runs initdb and every migration (~3 s of CPU, over 30 s on a busy 2-core host;
// docs/PERFORMANCE.md "Test suite time"). The server still applies the migrations at start, a no-op
// on an up-to-date copy, so the copy can never hide one. The path of a new owner (an empty DATA_DIR)
// keeps its own tests: server/main.test.ts starts the server and the built bundle on empty folders.

/** Names the template's folder for the test processes and what they spawn (set by the global set-ups). */
export const DATA_DIR_TEMPLATE_ENV = "SHOP_TEST_DATA_DIR_TEMPLATE";

/**
 * Makes the template (a DATA_DIR holding only the migrated database, no key and no password) and
 * names it in DATA_DIR_TEMPLATE_ENV for this process and the processes it starts; answers its removal.
 */
export async function createDataDirTemplate(): Promise<() => void> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-data-dir-template-"));
  const database = await openPglite(folder);
  await database.close();
  process.env[DATA_DIR_TEMPLATE_ENV] = folder;
  return () => {
    if (process.env[DATA_DIR_TEMPLATE_ENV] === folder) delete process.env[DATA_DIR_TEMPLATE_ENV];
    fs.rmSync(folder, { recursive: true, force: true });
  };
}

/** A new temporary DATA_DIR (prefix: its name in /tmp) holding a copy of the run's migrated database. */
export function migratedDataDir(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  copyTemplateInto(folder);
  return folder;
}

/** The template's folder (a DATA_DIR), for a process the test starts to copy from. */
export function dataDirTemplate(): string {
  const template = process.env[DATA_DIR_TEMPLATE_ENV];
  // Not a silent fallback to a fresh database: that would bring the cost back unseen.
  if (!template) throw new Error(`${DATA_DIR_TEMPLATE_ENV} is not set: run the tests through vitest or Playwright, whose global set-up makes the template.`);
  return template;
}

/** Copies the template's database into an existing, empty DATA_DIR. */
export function copyTemplateInto(dataDir: string): void {
  fs.cpSync(path.join(dataDirTemplate(), "pglite"), path.join(dataDir, "pglite"), { recursive: true });
}

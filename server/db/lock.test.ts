import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migratedDataDir } from "../../test-support/data-dir-template";
import { DatabaseLockedError, lockText, openPglite } from "./client";

// The PGlite folder's lock file: a live server keeps others out; a lock whose pid now belongs to
// some other process (pids are reused) or to no process does not block start-up.

const dirs: string[] = [];
/**
 * A DATA_DIR holding a copy of the run's migrated database (test-support/data-dir-template.ts): what is
 * tested is the lock, not a first start, which runs initdb and every migration (~30 s on a busy host).
 */
function dataDir(lock?: string): string {
  const dir = migratedDataDir("shop-lock-");
  dirs.push(dir);
  if (lock !== undefined) fs.writeFileSync(path.join(dir, "server.lock"), lock);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the data folder lock", () => {
  it("is refused while the process that wrote it still runs", async () => {
    // Our parent process is alive and is the process its lock text describes.
    await expect(openPglite(dataDir(lockText(process.ppid)))).rejects.toBeInstanceOf(DatabaseLockedError);
    // A lock written by an older version (pid only) of a live process holds too.
    await expect(openPglite(dataDir(String(process.ppid)))).rejects.toBeInstanceOf(DatabaseLockedError);
  });

  it("is taken over when its pid now names another process (started at another time)", async () => {
    const dir = dataDir(`${process.ppid} 1`);
    const database = await openPglite(dir);
    expect(fs.readFileSync(path.join(dir, "server.lock"), "utf8")).toBe(lockText(process.pid));
    await database.close();
    expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(false);
  });

  it("is taken over when its process is gone, or when it is an old pid-only lock of a dead process", async () => {
    for (const lock of ["999999999 123", "999999999", "garbage"]) {
      const database = await openPglite(dataDir(lock));
      await database.close();
    }
  });
});

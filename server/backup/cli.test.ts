import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSecretBox, loadSecretKey } from "../crypto";
import { openPglite } from "../db/client";
import { createBotSettings } from "../shop/settings";
import { createDiskStorage } from "../storage";
import { databaseChecksum } from "../../test-support/checksum";
import { bundled, type BundledEntry } from "../../test-support/bundles";
import { copyTemplateInto } from "../../test-support/data-dir-template";

// `npm run backup` and `npm run restore` as an operator runs them: real processes (the scripts bundled
// once per run, test-support/bundles.ts) on real DATA_DIRs.

const ROOT = path.resolve(import.meta.dirname, "../..");
const tempDirs: string[] = [];

afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-cli-"));
  tempDirs.push(dir);
  return dir;
}

/** Runs a script to its end, in a clean environment with only DATA_DIR set. */
function run(script: BundledEntry, args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bundled(script), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

async function checksumOf(dataDir: string): Promise<string> {
  const database = await openPglite(dataDir);
  try {
    return await databaseChecksum(database.db);
  } finally {
    await database.close();
  }
}

describe("npm run backup / restore", () => {
  it("moves a shop from one DATA_DIR to an empty one, and refuses to overwrite one without --force", { timeout: 180_000 }, async () => {
    // The source starts from the run's migrated database (test-support/data-dir-template.ts); the
    // target is a new, empty DATA_DIR, as an operator moving a shop has.
    const from = path.join(tempDir(), "data");
    fs.mkdirSync(from);
    copyTemplateInto(from);
    const to = path.join(tempDir(), "data");
    const archive = path.join(tempDir(), "shop.backup.gz");

    expect((await run("scripts/seed-demo.ts", [], from)).code).toBe(0);
    const photo = Buffer.from("a photo of a lamp, as bytes");
    await createDiskStorage(path.join(from, "objects")).put("lamp-photo-01", photo, "image/jpeg");
    // Bot settings whose secrets are encrypted with the key the server generated in DATA_DIR.
    const source = await openPglite(from);
    await createBotSettings(source.db, createSecretBox(loadSecretKey(undefined, from)), {
      botName: "Lamp shop",
      botToken: "123:secret",
      acceptedCurrencies: ["BTC"],
      welcomeMessage: "Hello",
      faqContent: "FAQ",
      nowpaymentsApiKey: "np-key",
      nowpaymentsIpnSecret: null,
      webhookUrl: null,
    });
    await source.close();

    const backup = await run("scripts/backup.ts", ["--out", archive], from);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up \d+ rows in \d+ tables and 1 image \(0\.0 MB\) to .*shop\.backup\.gz\.\n/);
    expect(backup.stdout).toContain("The encryption key is not in the backup");

    const restore = await run("scripts/restore.ts", [archive], to);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored \d+ rows in \d+ tables and 1 image from .*shop\.backup\.gz\.\n/);
    // The new DATA_DIR has no key yet: the restore says which one to bring.
    expect(restore.stdout).toContain("Note: the encryption key here is not the one the backup was made with");
    expect(fs.existsSync(path.join(to, "secret.key"))).toBe(false);
    expect(await checksumOf(to)).toBe(await checksumOf(from));
    expect(await createDiskStorage(path.join(to, "objects")).get("lamp-photo-01")).toEqual({ data: photo, contentType: "image/jpeg" });

    const again = await run("scripts/restore.ts", [archive], to);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^The target database is not empty: bot_settings \(1\), categories \(8\), .*add --force to replace everything in it\.\n$/);

    fs.copyFileSync(path.join(from, "secret.key"), path.join(to, "secret.key"));
    const forced = await run("scripts/restore.ts", [archive, "--force"], to);
    expect(forced.code).toBe(0);
    expect(forced.stdout).not.toContain("Note:");
    expect(await checksumOf(to)).toBe(await checksumOf(from));
  });

  it("answers a mistake with one clear line and a non-zero exit", { timeout: 60_000 }, async () => {
    const dataDir = path.join(tempDir(), "data");
    const noOut = await run("scripts/backup.ts", [], dataDir);
    expect(noOut.code).toBe(1);
    expect(noOut.stderr).toBe("Say where to write the backup.\nUsage: npm run backup -- --out FILE\n");

    const missing = await run("scripts/restore.ts", [path.join(dataDir, "nope.gz")], dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^.*nope\.gz does not exist\.\n$/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

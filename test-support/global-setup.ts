import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dumpMigratedPglite } from "../server/db/client";
import { createPostgresTemplate } from "./database";
import { databaseTestFiles } from "./database-tests";

// Once per vitest run, before any test file (vitest.config.ts globalSetup): the migrated database
// every createTestDatabase copies (a new one costs initdb plus every migration, ~2 s, where a copy
// costs ~0.4 s on PGlite), and the list of database tests createTestDatabase checks itself against.
// Made per run, the template always has the migrations of the code under test.
export default async function setup(project: TestProject) {
  project.provide("databaseTestFiles", databaseTestFiles(project.config.root));
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl);
    project.provide("postgresTemplate", template.name);
    return () => template.drop();
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-template-"));
  const file = path.join(folder, "pglite-migrated.tar");
  fs.writeFileSync(file, Buffer.from(await (await dumpMigratedPglite()).arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}

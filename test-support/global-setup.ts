import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dumpMigratedPglite } from "../server/db/client";
import { createTestBundles } from "./bundles";
import { createDataDirTemplate, dataDirTemplate } from "./data-dir-template";
import { createPostgresTemplate } from "./database";
import { databaseTestFiles } from "./database-tests";

// Once per vitest run, before any test file (vitest.config.ts globalSetup): the migrated database
// every createTestDatabase copies (a new one costs initdb plus every migration, ~2 s, where a copy
// costs ~0.4 s on PGlite), and the list of database tests createTestDatabase checks itself against.
// Made per run, the template always has the migrations of the code under test. Also a migrated PGlite
// DATA_DIR for the tests' real server processes (test-support/data-dir-template.ts), named in an
// environment variable the test processes inherit, which PGlite's template is dumped from; and the
// bundles of the server and the scripts those processes run (test-support/bundles.ts), built again
// when vitest's watch mode runs the tests again after a change.
export default async function setup(project: TestProject) {
  project.provide("databaseTestFiles", databaseTestFiles(project.config.root));
  const madeDataDirTemplate = createDataDirTemplate();
  const bundles = await createTestBundles();
  project.onTestsRerun(() => bundles.rebuild());
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const [template, removeDataDirTemplate] = await Promise.all([createPostgresTemplate(serverUrl), madeDataDirTemplate]);
    project.provide("postgresTemplate", template.name);
    return async () => {
      removeDataDirTemplate();
      bundles.remove();
      await template.drop();
    };
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-template-"));
  const file = path.join(folder, "pglite-migrated.tar");
  // Dumped from the migrated DATA_DIR just made rather than made again in memory: one initdb and one
  // migration run instead of two, and no initdb's peak memory in this process (docs/PERFORMANCE.md).
  const removeDataDirTemplate = await madeDataDirTemplate;
  const dump = await dumpMigratedPglite(dataDirTemplate());
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => {
    removeDataDirTemplate();
    bundles.remove();
    fs.rmSync(folder, { recursive: true, force: true });
  };
}

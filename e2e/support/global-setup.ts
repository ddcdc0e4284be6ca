import { ensureWebBuild } from "../../scripts/build-web";
import { createDataDirTemplate } from "../../test-support/data-dir-template";

/**
 * Before the workers start their servers: builds the web app when it is missing or stale, and makes
 * the migrated DATA_DIR every test server starts from (test-support/data-dir-template.ts; the workers
 * inherit the variable naming it). Answers the teardown that removes it.
 */
export default async function globalSetup() {
  const [, removeDataDirTemplate] = await Promise.all([ensureWebBuild(), createDataDirTemplate()]);
  return removeDataDirTemplate;
}

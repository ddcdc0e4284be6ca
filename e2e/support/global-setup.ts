import { ensureWebBuild } from "../../scripts/build-web";
import { createTestBundles } from "../../test-support/bundles";
import { createDataDirTemplate } from "../../test-support/data-dir-template";

/**
 * Before the workers start their servers: builds the web app when it is missing or stale, makes the
 * migrated DATA_DIR every test server starts from (test-support/data-dir-template.ts) and bundles the
 * servers the workers and some specs start (test-support/bundles.ts); the workers inherit the
 * variables naming them. Answers the teardown that removes them.
 */
export default async function globalSetup() {
  const [, removeDataDirTemplate, bundles] = await Promise.all([ensureWebBuild(), createDataDirTemplate(), createTestBundles()]);
  return () => {
    removeDataDirTemplate();
    bundles.remove();
  };
}

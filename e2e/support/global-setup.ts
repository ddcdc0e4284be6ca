import { ensureWebBuild } from "../../scripts/build-web";

/** Builds the web app once, before the workers start their servers, when it is missing or stale. */
export default async function globalSetup() {
  await ensureWebBuild();
}

import { defineConfig } from "@playwright/test";

// Browser tests (e2e/*.spec.ts) in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH; see
// e2e/support/fixtures.ts): Playwright never downloads a browser here. Each worker starts its own
// real server on a fresh temporary DATA_DIR (a copy of the run's migrated one); two workers keep a 2-core machine responsive.
//
// Time limits are sized for the slowest shared 2-core host CI has run on (the same suite took 25 min
// there and 7 min on a quiet one), not for a quiet machine: they bound a hang, they do not measure
// speed (npm run bench does). Tests with many screens call test.slow() (three times the limit).
// Traces keep the DOM snapshots but no screencast: recording frames cost about a sixth of the suite's
// CPU, on a machine where the browser and the server already share two cores.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  outputDir: "e2e/output/test-results",
  globalSetup: "./e2e/support/global-setup.ts",
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Each test goes to whichever worker is free, not each file as a whole: the two workers then end
  // together instead of one waiting on the longest file (a11y, orders). Every test starts from an
  // emptied shop (fixtures.ts), so none depends on another; the specs whose tests share a server of
  // their own (bot health, chat simulator, owner alerts) keep theirs together (describe.configure).
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // TEST_REPORT_SLOWEST=N (set by .ci/run) prints the N slowest spec files after the run.
  reporter: process.env.TEST_REPORT_SLOWEST ? [["list"], ["./e2e/support/slowest-files-reporter.ts"]] : [["list"]],
  use: {
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    // The shop's owner is in the UK (GBP, Europe/London): dates read day first (issue 22, item 12;
    // e2e/layout.spec.ts also runs en-US). Without it Chromium takes the machine's locale.
    locale: "en-GB",
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});

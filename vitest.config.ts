import { defineConfig } from "vitest/config";
// (".js": Vite's config loader wants an extension, and finds the .ts file by it.)
import { databaseTestFiles, TEST_FOLDERS } from "./test-support/database-tests.js";

// `vitest run --mode database` (npm run test:db, the PostgreSQL leg of .ci/run) runs only the test
// files whose database TEST_DATABASE_URL picks (test-support/database-tests.ts says which).
// TEST_REPORT_SLOWEST=N (set by .ci/run) prints the N slowest test files after the run.
export default defineConfig(({ mode }) => ({
  test: {
    include: mode === "database" ? databaseTestFiles(import.meta.dirname) : TEST_FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
    globalSetup: ["./test-support/global-setup.ts"],
    reporters: process.env.TEST_REPORT_SLOWEST ? ["default", "./test-support/slowest-files-reporter.ts"] : ["default"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on the 2-core CI host. The tests spend
    // much of their time waiting on real server processes, databases and sockets, so two files at a
    // time overlap that waiting (the PGlite leg: about 560 s -> 470 s here; docs/PERFORMANCE.md).
    maxWorkers: 2,
    // Each worker keeps the modules it loaded from one test file to the next instead of loading the
    // server again for every file: loading was a fifth of the tests' time (12 route files: 126 s of
    // imports -> 24 s, 150 s of CPU -> 90 s; docs/PERFORMANCE.md "Test suite time"). It is safe
    // because no test changes a module's state for the next: every file builds its own server,
    // database and fakes, and none mocks modules (vi.mock) or stubs globals.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
}));

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import vitestConfig from "../vitest.config";
import { databaseTestFiles, isDatabaseTest, testFiles } from "./database-tests";

// The PostgreSQL leg of CI runs only the database tests (test-support/database-tests.ts): a rule on
// what a file imports. These pin the rule down, and check that no database test of the project falls
// outside it.

const ROOT = path.resolve(import.meta.dirname, "..");
// Spelled in two parts: written whole, this file would itself read as one that reads the variable.
const ENV = ["process", "env"].join(".");

describe("the rule, on a project of its own", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-db-rule-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write("test-support/database.ts", "export async function createTestDatabase() {}\n");
  write("test-support/postgres.ts", `export const TEST_POSTGRES_URL = ${ENV}.TEST_DATABASE_URL ?? "postgres://x";\n`);
  write("test-support/app.ts", 'import { createTestDatabase } from "./database";\nexport { createTestDatabase };\n');
  write("test-support/harness.ts", 'export * from "./app";\n');
  write("test-support/types.ts", 'import type { X } from "./app";\nexport type Y = X;\n');

  const cases: Array<[string, string, boolean]> = [
    ["direct.test.ts", 'import { createTestDatabase } from "../test-support/database";', true],
    ["through-two.test.ts", 'import { createTestDatabase } from "../test-support/harness";', true],
    ["multi-line.test.ts", 'import {\n  a,\n  b,\n} from "../test-support/app";', true],
    ["with-extension.test.ts", 'import { a } from "../test-support/app.ts";', true],
    ["side-effect.test.ts", 'import "../test-support/app";', true],
    ["dynamic.test.ts", 'const { createTestDatabase } = await import("../test-support/database");', true],
    ["reads-the-url.test.ts", `const url = ${ENV}.TEST_DATABASE_URL;`, true],
    ["reads-the-url-by-key.test.ts", `const url = ${ENV}["TEST_DATABASE_URL"];`, true],
    ["types-only.test.ts", 'import type { Y } from "../test-support/types";\nimport type { X } from "../test-support/app";', false],
    ["own-postgres.test.ts", 'import { TEST_POSTGRES_URL } from "../test-support/postgres";', false],
    ["pure.test.ts", 'import { expect } from "vitest";\nimport path from "node:path";', false],
    ["says-the-name-in-a-comment.test.ts", "// Runs on PostgreSQL too when TEST_DATABASE_URL is set.", false],
  ];
  for (const [file, source] of cases) write(`server/${file}`, `${source}\n`);

  for (const [file, , expected] of cases) {
    it(`${file}: ${expected ? "a database test" : "not a database test"}`, () => {
      expect(isDatabaseTest(`server/${file}`, root)).toBe(expected);
    });
  }

  it("lists the test files of the project's test folders only", () => {
    write("e2e/ignored.test.ts", 'import "../test-support/database";\n');
    expect(testFiles(root)).toEqual(cases.map(([file]) => `server/${file}`).sort());
  });
});

describe("the rule, on this project", () => {
  const all = testFiles(ROOT);
  const selected = databaseTestFiles(ROOT);

  it("selects every test file that opens a database TEST_DATABASE_URL picks", () => {
    // The helpers that open one (test-support/database.ts, app.ts, bot-harness.ts): a file naming one
    // of them and left out would be a database test the PostgreSQL leg never runs.
    const opensOne = /\b(createTestDatabase|startTestServer|useAdminServer|startShopWithBot|startShopWithConfiguredBot)\(/;
    const naming = all.filter((file) => opensOne.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(naming.length).toBeGreaterThan(50);
    expect(naming.filter((file) => !selected.includes(file))).toEqual([]);
  });

  it("leaves out the tests that behave the same on both legs", () => {
    for (const file of ["server/shop/pricing.test.ts", "server/config.test.ts", "server/cluster.test.ts", "server/db/leader.test.ts"]) {
      expect(selected).not.toContain(file);
    }
  });

  it("is what `vitest run --mode database` (npm run test:db) includes; a plain run includes every test file", () => {
    const include = (mode: string) => {
      const config = typeof vitestConfig === "function" ? vitestConfig({ mode, command: "serve" }) : vitestConfig;
      return (config as { test: { include: string[] } }).test.include;
    };
    expect(include("database")).toEqual(selected);
    expect(include("test")).toEqual(["server/**/*.test.ts", "contract/**/*.test.ts", "scripts/**/*.test.ts", "test-support/**/*.test.ts", "web/**/*.test.ts"]);
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["test:db"]).toBe("vitest run --mode database");
  });
});

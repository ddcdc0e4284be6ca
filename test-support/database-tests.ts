import fs from "node:fs";
import path from "node:path";

// Which test files the PostgreSQL leg of CI (`npm run test:db`, .ci/run) runs again with
// TEST_DATABASE_URL set: those whose database is the one TEST_DATABASE_URL picks. That is a file that
// imports test-support/database.ts (createTestDatabase: PGlite, or PostgreSQL with TEST_DATABASE_URL),
// directly or through other modules (test-support/app.ts, bot-harness.ts, ...), or that reads
// process.env.TEST_DATABASE_URL itself. The rest behave the same on both legs: pure logic, or tests on a
// PostgreSQL of their own (test-support/postgres.ts), which the first leg already ran there.
//
// The rule reads the import graph, so a new database test is picked up without a list to keep; and
// createTestDatabase refuses to run in a file this rule misses (test-support/database.ts), so the
// first leg fails before a database test could silently drop out of the second.

/** The module whose importers are database tests. */
export const DATABASE_MODULE = path.join("test-support", "database.ts");

/**
 * The folders whose *.test.ts files are the vitest suite (vitest.config.ts includes them). web/'s are
 * the browser code's pure logic, run in Node (the storefront's dictionaries); its screens are tested
 * in a browser by e2e/.
 */
export const TEST_FOLDERS = ["server", "contract", "scripts", "test-support", "web"];

// Value imports and re-exports (`import type` and `export type` are erased: they load nothing), side-effect
// imports and dynamic imports of a literal path. Statements may span lines.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)[^;'"]*?\bfrom\s*["']([^"']+)["']/gm;
const SIDE_EFFECT_IMPORT = /^\s*import\s*["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
const READS_DATABASE_URL = /process\.env\.TEST_DATABASE_URL|process\.env\[\s*["']TEST_DATABASE_URL["']\s*\]/;

/** The project files a module imports (relative specifiers only: packages are not the project's). */
export function importsOf(file: string, source = fs.readFileSync(file, "utf8")): string[] {
  const specifiers = [STATIC_IMPORT, SIDE_EFFECT_IMPORT, DYNAMIC_IMPORT].flatMap((pattern) =>
    [...source.matchAll(pattern)].map((match) => match[1]!),
  );
  return specifiers.filter((specifier) => specifier.startsWith(".")).flatMap((specifier) => resolveModule(path.dirname(file), specifier) ?? []);
}

function resolveModule(from: string, specifier: string): string | null {
  const base = path.resolve(from, specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, ".ts"), path.join(base, "index.ts")];
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile()) ?? null;
}

/** Whether a test file's database is the one TEST_DATABASE_URL picks (the rule at the top of this file). */
export function isDatabaseTest(testFile: string, root: string): boolean {
  const target = path.join(root, DATABASE_MODULE);
  const seen = new Set<string>();
  const pending = [path.resolve(root, testFile)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (file === target) return true;
    const source = fs.readFileSync(file, "utf8");
    if (READS_DATABASE_URL.test(source) && file !== path.join(root, "test-support", "postgres.ts")) return true;
    pending.push(...importsOf(file, source));
  }
  return false;
}

/** Every test file of the project (relative to root, "/"-separated, sorted). */
export function testFiles(root: string): string[] {
  return TEST_FOLDERS.filter((folder) => fs.existsSync(path.join(root, folder))).flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts") && !file.split(path.sep).includes("node_modules"))
      .map((file) => [folder, ...file.split(path.sep)].join("/")),
  ).sort();
}

/** The test files the PostgreSQL leg runs. */
export function databaseTestFiles(root: string): string[] {
  return testFiles(root).filter((file) => isDatabaseTest(file, root));
}

// The "ten slowest test files" table .ci/run prints after each test runner (TEST_REPORT_SLOWEST=N):
// where the CI time goes, so a file that grows slow is seen the day it does.

export type FileTime = { file: string; ms: number };

/** The `count` slowest files, slowest first, as aligned lines under a title. */
export function slowestFilesReport(title: string, times: FileTime[], count: number): string {
  const slowest = [...times].sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file)).slice(0, count);
  const lines = slowest.map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(8)} s  ${file}`);
  return [`${title}: the ${slowest.length} slowest of ${times.length} files`, ...lines].join("\n");
}

/** The N of TEST_REPORT_SLOWEST (10 when it is set to something else than a positive whole number). */
export function slowestCount(value: string | undefined): number {
  const count = Number(value);
  return Number.isInteger(count) && count > 0 ? count : 10;
}

import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { slowestCount, slowestFilesReport } from "../../test-support/slowest-files";

/**
 * A Playwright reporter (added by playwright.config.ts when TEST_REPORT_SLOWEST is set): the slowest
 * spec files, each the sum of its tests' times (fixtures and hooks included, worker start-up not).
 */
export default class SlowestFilesReporter implements Reporter {
  private readonly times = new Map<string, number>();

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const file = test.location.file.replace(`${process.cwd()}/`, "");
    this.times.set(file, (this.times.get(file) ?? 0) + result.duration);
  }

  onEnd() {
    const times = [...this.times].map(([file, ms]) => ({ file, ms }));
    console.log(`\n${slowestFilesReport("playwright", times, slowestCount(process.env.TEST_REPORT_SLOWEST))}\n`);
  }
}

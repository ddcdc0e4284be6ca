import type { Reporter, TestModule } from "vitest/node";
import { slowestCount, slowestFilesReport } from "./slowest-files";

/**
 * A vitest reporter (added by vitest.config.ts when TEST_REPORT_SLOWEST is set): the slowest test
 * files, each timed from its set-up to its last test (imports, hooks and tests).
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const times = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      const ms =
        diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration;
      return { file: module.relativeModuleId, ms };
    });
    console.log(`\n${slowestFilesReport("vitest", times, slowestCount(process.env.TEST_REPORT_SLOWEST))}\n`);
  }
}

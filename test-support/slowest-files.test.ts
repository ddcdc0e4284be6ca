import { describe, expect, it } from "vitest";
import { slowestCount, slowestFilesReport } from "./slowest-files";

describe("the slowest test files table (.ci/run)", () => {
  it("lists the slowest files first, at most `count`, in seconds", () => {
    const times = [
      { file: "a.test.ts", ms: 1_000 },
      { file: "b.test.ts", ms: 61_250 },
      { file: "c.test.ts", ms: 5_040 },
    ];
    expect(slowestFilesReport("vitest", times, 2)).toBe(
      ["vitest: the 2 slowest of 3 files", "    61.3 s  b.test.ts", "     5.0 s  c.test.ts"].join("\n"),
    );
  });

  it("reads its count from TEST_REPORT_SLOWEST, 10 for anything not a positive whole number", () => {
    expect(slowestCount("3")).toBe(3);
    for (const value of [undefined, "", "0", "-2", "1.5", "ten", "1", "yes"]) {
      expect(slowestCount(value)).toBe(value === "1" ? 1 : 10);
    }
  });
});

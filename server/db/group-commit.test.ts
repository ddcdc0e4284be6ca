import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit";

describe("group commit", () => {
  it("runs a lone item at once, and puts what arrives during a run into the next one", async () => {
    const runs: number[][] = [];
    let release: () => void = () => {};
    const double = groupCommit(async (items: number[]) => {
      runs.push(items);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((item) => item * 2);
    });
    const first = double(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toEqual([[1]]);
    const later = [double(2), double(3), double(4)];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toEqual([[1]]);
    release();
    expect(await first).toBe(2);
    expect(await Promise.all(later)).toEqual([4, 6, 8]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it("fails only the callers of a failed run, and keeps going", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const check = groupCommit(async (items: number[]) => {
      if (items.includes(1)) await gate;
      if (items.includes(2)) throw new Error(`refused ${items.join(",")}`);
      return items.map(() => "ok");
    });
    const first = check(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Arrive while 1 is being written: they go together in the next statement, which fails.
    const second = Promise.allSettled([check(2), check(3)]);
    release();
    expect(await first).toBe("ok");
    expect((await second).map((result) => (result.status === "rejected" ? String(result.reason) : result.value))).toEqual([
      "Error: refused 2,3",
      "Error: refused 2,3",
    ]);
    expect(await check(4)).toBe("ok");
  });

  it("answers every caller with its own result, in batches of at most maxBatch (generated arrivals)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer(), fc.nat(3)), { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), async (arrivals, maxBatch) => {
        const sizes: number[] = [];
        const negate = groupCommit(async (items: number[]) => {
          sizes.push(items.length);
          await new Promise((resolve) => setTimeout(resolve, items.length % 2));
          return items.map((item) => -item);
        }, maxBatch);
        const answers: Promise<number>[] = [];
        for (const [value, pause] of arrivals) {
          answers.push(negate(value));
          if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause - 1));
        }
        expect(await Promise.all(answers)).toEqual(arrivals.map(([value]) => -value));
        expect(sizes.every((size) => size >= 1 && size <= maxBatch)).toBe(true);
        expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(arrivals.length);
      }),
      { numRuns: 50 },
    );
  });
});

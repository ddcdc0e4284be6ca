import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, ElementContext } from "axe-core";
import { expect } from "./fixtures";

// axe-core in the page: WCAG 2.0 and 2.1, A and AA (issue 13 item 7, issue 22 item 10). One helper for
// every spec that checks a screen or a dialog.
//
// axe's script is put in the page once and stays there while the app moves between screens (the
// router follows history.pushState): @axe-core/playwright's AxeBuilder evaluated the whole 550 kB
// script again before every pass, which took three to four times as long as the pass itself
// (docs/PERFORMANCE.md "Fifth round"). The pass is the same: axe.run in the page itself (what
// AxeBuilder's legacy mode does), with the same rules; the app has no frames for a frame-by-frame
// run to reach.

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** A serious or critical violation, as a failing test prints it: the rule, its help, and where. */
export type SeriousViolation = { rule: string; impact: string; help: string; nodes: string[] };

/** axe's serious and critical violations on the page, or on the part `include` selects. */
export async function seriousViolations(page: Page, include?: string): Promise<SeriousViolation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ include, tags }) => {
      // Colours are read as the screen ends up: a dialog or its overlay still fading in would be
      // measured at a contrast it only passes through.
      const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
      await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
      const axe = (window as unknown as { axe: { run(context: ElementContext, options: object): Promise<AxeResults> } }).axe;
      return axe.run(include ? { include: [include] } : document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    },
    { include, tags: WCAG_A_AA },
  );
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact!,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`.slice(0, 400)),
    }));
}

/**
 * Fails the test when axe finds a serious or critical violation on the page (or the part `include`
 * selects). `soft`: the test goes on to its next check and fails at its end (a walk over many screens).
 */
export async function expectNoSeriousViolations(page: Page, where: string, include?: string, { soft = false } = {}) {
  const serious = await seriousViolations(page, include);
  const message = `axe: serious or critical violations on ${where}`;
  if (soft) expect.soft(serious, message).toEqual([]);
  else expect(serious, message).toEqual([]);
}

import { expect, test } from "./support/fixtures";

// The guard that runs every browser test under the server's Content-Security-Policy
// (e2e/support/fixtures.ts, docs/SECURITY.md "Headers") must see a violation the console never
// shows: a blocked `new Function` whose error the page catches, as zod's probe for eval did on every
// page until the web app turned zod's JIT off (web/zod-setup.ts).

test.describe("the browser tests' CSP guard", () => {
  test("records a violation the page caught and the console never showed, with its directive and what it blocked", async ({
    adminPage: page,
    cspViolations,
  }) => {
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    // The page's own script (same origin, so `script-src 'self'` lets it run), not page.evaluate:
    // what the test evaluates is exempt from the page's CSP.
    await page.route("**/csp-probe.js", (route) =>
      route.fulfill({ contentType: "text/javascript", body: "try { new Function(''); window.cspProbe = 'ran'; } catch { window.cspProbe = 'blocked'; }" }),
    );
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 2 })).toBeVisible();
    expect(cspViolations, "the dashboard itself violates nothing").toEqual([]);

    await page.evaluate(() => document.head.append(Object.assign(document.createElement("script"), { src: "/csp-probe.js" })));
    await expect.poll(() => page.evaluate(() => (window as unknown as { cspProbe?: string }).cspProbe)).toBe("blocked");
    await expect.poll(() => cspViolations).toEqual([expect.stringMatching(/^script-src blocked eval \(at http:\/\/127\.0\.0\.1:\d+\/csp-probe\.js:1\)$/)]);
    expect(logged.filter((text) => /Content Security Policy/i.test(text)), "the console said nothing").toEqual([]);
    // Seen: the guard would fail this test at its end; cleared, so that it passes.
    cspViolations.length = 0;
  });
});

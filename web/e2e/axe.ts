import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** One failing check, as the helper reports it. */
export interface SeriousViolation {
  id: string;
  impact: string;
  help: string;
  /** Each element, with what axe found wrong with it (a contrast ratio, a missing name). */
  targets: string[];
}

/**
 * Waits for the page's finite animations (a dialog or toast sliding in) to end,
 * so colours are checked as they settle, not halfway through a fade. Endless
 * ones (spinners, the loading bar) are left running.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY);
    await Promise.race([
      Promise.allSettled(finite.map((animation) => animation.finished)),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
  });
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<SeriousViolation[]> {
  await page.waitForLoadState('load');
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated rather than added as a <script>: the app's Content-Security-Policy
    // (script-src 'self') refuses inline scripts, and it stays on for the journeys.
    await page.evaluate(axeSource);
  }
  const options: RunOptions = { resultTypes: ['violations'] };
  return page.evaluate(async (runOptions) => {
    const { axe } = window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } };
    const results = await axe.run(document, runOptions);
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        targets: violation.nodes.map((node) => {
          const why = [...node.any, ...node.all, ...node.none].find((check) => check.message)?.message;
          return why ? `${node.target.join(' ')}: ${why}` : node.target.join(' ');
        }),
      }));
  }, options);
}

/**
 * Fails with a readable list (rule id, impact, what it asks, and each element)
 * when axe-core finds a serious or critical violation on the page. `where`
 * names the screen in the message.
 */
export async function expectNoSeriousViolations(page: Page, where = page.url()): Promise<void> {
  const found = await seriousViolations(page);
  if (found.length === 0) return;
  const lines = found.map(
    (violation) =>
      `- ${violation.id} (${violation.impact}): ${violation.help}\n${violation.targets
        .map((target) => `    ${target}`)
        .join('\n')}`,
  );
  throw new Error(`Accessibility violations on ${where}:\n${lines.join('\n')}`);
}

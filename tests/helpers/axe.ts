import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * The page's serious and critical accessibility problems, found by axe-core run inside the page
 * (team guide: pages pass axe with no serious or critical violation). Empty when there are none.
 * Toasts are left out: they are the shared sonner component, gone after 3 seconds, checked apart.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe.run;
    const result = await run({ exclude: [['[data-sonner-toaster]']] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

/** axe-core injected into the page (no @axe-core/playwright): serious and critical violations only. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

declare global {
  interface Window {
    axe?: { run(context: Document, options: object): Promise<{ violations: AxeResult[] }> };
  }
}
interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export const seriousViolations = async (page: Page): Promise<Violation[]> => {
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe?.run(document, { resultTypes: ['violations'] });
    return (result?.violations ?? []).map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};

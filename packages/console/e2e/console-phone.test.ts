/**
 * The console on a phone (390×844) and in both languages: no screen spills sideways (tables become
 * labelled rows) or leaves a checkbox alone with its words under it, charts span the chosen period
 * with 24-hour labels, and a refusal reads in the console's language.
 */
import { join } from 'node:path';
import { HOUR_MS } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { reportOneEvent } from '@edupass/test-kit/usage-reports';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strandedChoices } from '../../web/e2e/support/touch.ts';
import { SECTIONS } from '../src/router.ts';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;

beforeAll(async () => {
  rig = await startConsoleRig();
  page = await openConsoleAsOperator(rig);
  await page.setViewportSize({ width: 390, height: 844 });
});
afterAll(() => rig?.close());

/** How far the page reaches past the viewport's right edge, in CSS pixels (0 when nothing spills). */
const spill = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the console on a phone', () => {
  it('no screen is wider than the phone: tables fold into labelled rows', async () => {
    const wide: string[] = [];
    const stranded: string[] = [];
    const visit = async (hash: string, name: string) => {
      await page.evaluate((to) => {
        window.location.hash = to;
      }, hash);
      await page.locator('main h1').first().waitFor();
      // Screens load their data after the heading: wait until nothing is loading.
      await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
      if ((await spill(page)) > 0) wide.push(`${name}: ${await spill(page)} px`);
      stranded.push(...(await strandedChoices(page)).map((choice) => `${name}: ${choice}`));
      await keepScreenshot(page, { path: join(SCREENSHOTS, `console-${name}.zh-CN.390.png`), fullPage: true });
    };
    for (const section of SECTIONS) await visit(`#/${section}`, section);
    // A user's page: identities, sessions with their browsers, agreements.
    await visit('#/users', 'users');
    const first = await page.locator('.console-user-name').first().getAttribute('href');
    await visit(first ?? '#/users', 'user');
    expect(wide).toEqual([]);
    expect(stranded).toEqual([]);
    // A folded table still names each value: its cells carry their column's name.
    await visit('#/agreements', 'agreements');
    const cell = page.locator('.console-table tbody td').first();
    expect(await cell.getAttribute('data-label')).toBe('代码');
    const label = await cell.evaluate((td) => getComputedStyle(td, '::before').content);
    expect(label).toContain('代码');
    // Folded, the table is still a table to assistive technology: axe finds nothing.
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('a chart with all its data in one hour spans the chosen seven days, not an axis of years', async () => {
    expect((await reportOneEvent(rig.server.url)).status).toBe(204);
    await page.evaluate(() => {
      window.location.hash = '#/usage';
    });
    await page.getByRole('button', { name: '查询' }).click();
    const chart = page.locator('.console-chart');
    await expect.poll(() => chart.getAttribute('data-x-range'), { timeout: 20_000 }).toBeTruthy();
    const [min = 0, max = 0] = ((await chart.getAttribute('data-x-range')) ?? '').split(',').map(Number);
    expect((max - min) * 1000).toBe(7 * 24 * HOUR_MS);
    expect(Math.abs(max * 1000 - Date.now())).toBeLessThan(2 * HOUR_MS);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-usage-one-bucket.zh-CN.390.png'), fullPage: true });
  });
});

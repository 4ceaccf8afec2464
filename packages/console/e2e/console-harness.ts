/**
 * What every console browser test starts with: the web client and the console built by Vite, the real
 * server serving them (and the API) on a loopback port, Chromium (the web tests' `startApp`), and an
 * operator created the way the CLI does it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { nextPhone, PASSWORD } from '@edupass/test-kit/accounts';
import type { BuildOptions } from '@edupass/test-kit/server';
import { createAdmin } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { type AppUnderTest, startApp } from '../../web/e2e/support/app-server.ts';
import { STEP_TIMEOUT_MS, shown, watchPage } from '../../web/e2e/support/pages.ts';

export const SCREENSHOTS = resolve(import.meta.dirname, 'screenshots');

export interface ConsoleRig extends AppUnderTest {
  operator: { phone: string; password: string };
}

/** `options.now` gives the server a clock the test moves (data "from other days"). */
export const startConsoleRig = async (options: BuildOptions = {}): Promise<ConsoleRig> => {
  const app = await startApp({}, options);
  const operator = { phone: nextPhone(), password: PASSWORD };
  await createAdmin(app.server.app.ctx, operator.phone, operator.password);
  return { ...app, operator };
};

/** Opens the console in a fresh browser context (its own sessionStorage) and signs in. */
export const openConsole = async (rig: ConsoleRig, identity: string, password: string, hash = ''): Promise<Page> => {
  const context = await rig.browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  watchPage(page);
  await page.goto(`${rig.server.url}/console.html${hash}`);
  await page.getByLabel('手机号、用户名或邮箱').fill(identity);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  return page;
};

/** Opens the console as the rig's operator, once the first screen (the users) shows. */
export const openConsoleAsOperator = async (rig: ConsoleRig): Promise<Page> => {
  const page = await openConsole(rig, rig.operator.phone, rig.operator.password);
  await shown(page, page.getByRole('heading', { name: '用户', level: 1 }));
  return page;
};

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's WCAG 2 A/AA rules on the page as it is now; answers the violations (id and targets). */
export const accessibilityViolations = async (page: Page) => {
  // Evaluated rather than added as a <script>: the console's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
};

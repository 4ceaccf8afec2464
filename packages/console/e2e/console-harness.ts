/**
 * What every console browser test starts with: the web client and the console built by Vite, the real
 * server serving them (and the API) on a loopback port, Chromium (the web tests' `startApp`), an
 * operator created the way the CLI does it, and the folder for screenshots; then the operator signed in,
 * through the console's own sign-in screen (and its second factor) or over the API.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { TotpSetup } from '@edupass/protocol';
import { A, nextPhone, STAFF_PASSWORD, signIn } from '@edupass/test-kit/accounts';
import { client } from '@edupass/test-kit/http-client';
import type { BuildOptions, Config } from '@edupass/test-kit/server';
import { createAdmin } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppUnderTest, startApp } from '../../web/e2e/support/app-server.ts';
import { newTestContext, shown, watchPage } from '../../web/e2e/support/pages.ts';

export const SCREENSHOTS = resolve(import.meta.dirname, 'screenshots');

export interface ConsoleRig extends AppUnderTest {
  operator: { phone: string; password: string };
}

/**
 * `options.now` gives the server a clock the test moves (data "from other days"); `overrides` change its
 * configuration (the staff identity suite runs the shipped password policy and idle time-out).
 */
export const startConsoleRig = async (
  options: BuildOptions = {},
  overrides: Partial<Config> = {},
): Promise<ConsoleRig> => {
  const app = await startApp(overrides, options);
  const operator = { phone: nextPhone(), password: STAFF_PASSWORD };
  await Promise.all([
    createAdmin(app.server.app.ctx, operator.phone, operator.password),
    mkdir(SCREENSHOTS, { recursive: true }),
  ]);
  return { ...app, operator };
};

/**
 * A rig for the test file (or describe block) that calls this, as `withApp` gives the app: started in
 * its beforeAll, closed in its afterAll; the answer gives the rig once started.
 */
export const withConsoleRig = (): (() => ConsoleRig) => {
  let running: ConsoleRig | undefined;
  beforeAll(async () => {
    running = await startConsoleRig();
  }, 180_000);
  afterAll(() => running?.close());
  return () => {
    if (!running) throw new Error('the rig is used before its beforeAll started it');
    return running;
  };
};

/** Opens the console in a fresh browser context (its own sessionStorage) and signs in. */
export const openConsole = async (rig: ConsoleRig, identity: string, password: string, hash = ''): Promise<Page> => {
  const context = await newTestContext(rig.browser, { locale: 'zh-CN', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  watchPage(page);
  await page.goto(`${rig.server.url}/console.html${hash}`);
  await page.getByLabel('手机号、用户名或邮箱').fill(identity);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  return page;
};

/**
 * Opens the console at `hash` and signs the rig's operator in; what follows the password (a second
 * factor, a puzzle, the screen) is the caller's to wait for.
 */
export const signInAsOperator = (rig: ConsoleRig, hash = ''): Promise<Page> =>
  openConsole(rig, rig.operator.phone, rig.operator.password, hash);

/**
 * The console signed in as a new operator holding the auditor duty alone (the one that reads the audit
 * log), on the audit log. For rigs without OPERATOR_MFA=required.
 */
export const openConsoleAsAuditor = async (rig: ConsoleRig): Promise<Page> => {
  const phone = nextPhone();
  await createAdmin(rig.server.app.ctx, phone, STAFF_PASSWORD, ['auditor']);
  const page = await openConsole(rig, phone, STAFF_PASSWORD, '#/audit');
  await shown(page, page.getByRole('heading', { name: '操作日志', level: 1 }));
  return page;
};

/** A screen of the console: where it is, and the heading that shows it is there. */
export interface ConsoleScreen {
  /** @default '' (the first screen) */
  hash?: string;
  /** @default '用户' (the users) */
  heading?: string;
  /** @default 1 */
  level?: number;
}

/** Opens the console as the rig's operator, once the screen shows (by default the first one, the users). */
export const openConsoleAsOperator = async (rig: ConsoleRig, screen: ConsoleScreen = {}): Promise<Page> => {
  const page = await signInAsOperator(rig, screen.hash);
  await shown(page, page.getByRole('heading', { name: screen.heading ?? '用户', level: screen.level ?? 1 }));
  return page;
};

/** The operator's access token from a sign-in over the API (with a solved captcha's ticket, if given). */
export const operatorToken = async (rig: ConsoleRig, captchaTicket?: string): Promise<string> =>
  (await signIn(rig.server, rig.operator.phone, rig.operator.password, captchaTicket)).access.token;

/**
 * Sets up an authenticator app, over the API, for the account whose access token is `token`; answers
 * the app's secret. `freshCode` is the server clock's (rfc6238.ts `steppingClock`).
 */
export const setUpAuthenticator = async (
  rig: ConsoleRig,
  token: string,
  freshCode: (secret: string) => string,
): Promise<string> => {
  const call = client(rig.server.url);
  const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token });
  const confirmed = await call(
    'POST',
    `${A}/second-factor/totp/confirm`,
    { code: freshCode(setup.body.secret) },
    { token },
  );
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return setup.body.secret;
};

/** Answers the console's second-factor step, once it shows, with the app's code (taken only then). */
export const answerAppCode = async (page: Page, code: () => string): Promise<void> => {
  await shown(page, page.getByRole('heading', { name: '两步验证' }));
  await page.getByLabel('验证码').fill(code());
  await page.getByRole('button', { name: '验证' }).click();
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

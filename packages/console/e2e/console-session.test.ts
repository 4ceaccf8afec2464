/**
 * The operator's session on the account SDK, in Chromium against the real server: failures read as the
 * catalogue's Chinese text (never the server's English with its code), a reload keeps the operator
 * signed in within the tab while a new tab (its own sessionStorage) starts signed out, sign-out ends
 * the session on the server, and a session the server no longer knows leads back to the sign-in.
 */
import { adminRoutes, SERVER_ERRORS, type ServerCode } from '@edupass/protocol';
import { client } from '@edupass/test-kit/http-client';
import { errorsZhCN } from '@edupass/ui-kit/errors/zh-CN.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleRig, openConsole, signInAsOperator, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let shift = 0;

beforeAll(async () => {
  rig = await startConsoleRig({ now: () => Date.now() + shift });
});
afterAll(() => rig?.close());

const SIGN_IN = '运营人员登录';
const signedIn = (page: Page) => page.getByRole('navigation', { name: '控制台栏目' }).waitFor();
const signInShown = (page: Page) => page.getByRole('heading', { name: SIGN_IN }).waitFor();
/** The console in a fresh context (its own sessionStorage), the operator signed in. */
const openSignedIn = async (hash = '') => {
  const page = await signInAsOperator(rig, hash);
  await signedIn(page);
  return page;
};
const heldToken = (page: Page) =>
  page.evaluate(
    () =>
      (
        JSON.parse(sessionStorage.getItem('edupass.console.tokens') ?? '{}') as {
          tokens?: { access?: { token?: string } };
        }
      ).tokens?.access?.token,
  );

describe('errors', () => {
  it('a refused sign-in reads as the catalogue text in Chinese, not the server English and code', async () => {
    const page = await openConsole(rig, rig.operator.phone, 'not-the-password-1');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(errorsZhCN.USER_NOT_EXIST_OR_WRONG_PASSWORD);
    await page.context().close();
  });

  it("a failed admin call's message is the catalogue text in Chinese too", async () => {
    const page = await signInAsOperator(rig, '#/users/987654321');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    // What the server answered the console, asked again with the console's token.
    const refused = await client(rig.server.url)('GET', '/admin/users/987654321', undefined, {
      token: (await heldToken(page)) ?? '',
    });
    const { error_code, error_message } = refused.body as { error_code: ServerCode; error_message: string };
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain(errorsZhCN[SERVER_ERRORS[error_code].client]);
    expect(text).not.toContain(error_code);
    expect(text).not.toContain(error_message);
    await page.context().close();
  });
});

describe('the session', () => {
  it('a reload keeps the operator signed in within the tab; a new tab starts signed out', async () => {
    const page = await openSignedIn('#/audit');
    await page.reload();
    await signedIn(page);
    expect(await page.getByRole('heading', { name: SIGN_IN }).count()).toBe(0);

    const other = await page.context().newPage();
    await other.goto(`${rig.server.url}/console.html#/audit`);
    await signInShown(other);
    expect(await heldToken(other)).toBeUndefined();
    // The first tab is still signed in.
    await page.reload();
    await signedIn(page);
    await page.context().close();
  });

  it('sign-out ends the session on the server and shows the sign-in', async () => {
    const page = await openSignedIn();
    const token = await heldToken(page);
    expect(token).toBeTruthy();
    if (!token) return;
    await page.getByRole('button', { name: '退出登录' }).click();
    await signInShown(page);
    expect(await heldToken(page)).toBeUndefined();
    const answer = await client(rig.server.url)('GET', adminRoutes.listOperators.path, undefined, { token });
    expect([401, 403]).toContain(answer.status);
    await page.reload();
    await signInShown(page);
    await page.context().close();
  });

  it('a session the server no longer knows leads back to the sign-in, saying so', async () => {
    const page = await openSignedIn();
    // The first screen's own reads finished first: one still under way when the clock moves meets the
    // ended session itself, and the sign-in replaced the navigation before the click (seen under load).
    await page.waitForLoadState('networkidle');
    shift = (rig.server.config.refreshTokenTtlSeconds + rig.server.config.sessionTokenTtlSeconds + 60) * 1000;
    try {
      await page.getByRole('navigation').getByRole('link', { name: '学校', exact: true }).click();
      await signInShown(page);
      await page.getByRole('status').filter({ hasText: '登录已失效，请重新登录。' }).waitFor();
      expect(await heldToken(page)).toBeUndefined();
    } finally {
      shift = 0;
    }
    await page.context().close();
  });
});

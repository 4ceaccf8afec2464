/**
 * Rotating the signing keys from the console, in Chromium against the real server: the screen lists
 * the key in use, a rotation adds a published "next" key, "at once" makes a new key sign; a user
 * signed in before keeps working throughout (nobody is signed out), and the JWKS lists every key.
 * "At once" asks first, naming the key that stops signing.
 */

import { join } from 'node:path';
import { A, signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
afterAll(() => rig?.close());

const keysTable = () => page.getByRole('table', { name: '密钥' });
const signingRow = () => keysTable().getByRole('row').filter({ hasText: '签名中' });
const jwksKids = async () =>
  ((await (await fetch(`${rig.server.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map(
    (key) => key.kid,
  );

describe('signing keys', () => {
  it('rotates from the console without signing anyone out', async () => {
    const user = await signUp(rig.server);
    const profile = async () =>
      (await client(rig.server.url)('GET', `${A}/profile`, undefined, { token: user.token })).status;

    await page.getByRole('navigation').getByRole('link', { name: '签名密钥' }).click();
    await page.getByRole('heading', { name: '签名密钥', level: 1 }).waitFor();
    await expect.poll(() => keysTable().getByRole('row').count()).toBe(2);
    await keysTable().getByText('签名中').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: '轮换' }).click();
    await page.getByText('已添加新的签名密钥。').waitFor();
    await keysTable().getByText('待用（已发布，尚未签名）').waitFor();
    expect(await jwksKids()).toHaveLength(2);
    expect(await profile()).toBe(200);

    // Signing with a new key at once asks first, naming the key it replaces: Cancel and Escape leave it signing.
    const signing = (await signingRow().getByRole('rowheader').textContent()) ?? '';
    expect(signing).not.toBe('');
    await page.getByLabel('立即用新密钥签名').check();
    const asked = page.getByRole('dialog', { name: `立即停止用 ${signing} 签名？` });
    await page.getByRole('button', { name: '轮换' }).click();
    await asked.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-confirm-rotate-now.zh-CN.1280.png') });
    await asked.getByRole('button', { name: '取消' }).click();
    await asked.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '轮换' }).click();
    await asked.waitFor();
    await page.keyboard.press('Escape');
    await asked.waitFor({ state: 'hidden' });
    expect(await keysTable().getByRole('row').count()).toBe(3);
    expect(await signingRow().getByRole('rowheader').textContent()).toBe(signing);
    expect(await jwksKids()).toHaveLength(2);

    await page.getByRole('button', { name: '轮换' }).click();
    await asked.getByRole('button', { name: '立即轮换' }).click();
    await expect.poll(() => keysTable().getByRole('row').count()).toBe(4);
    await expect.poll(() => keysTable().getByText('退役中（仍验证其令牌）').count()).toBe(2);
    expect(await jwksKids()).toHaveLength(3);
    expect(await profile()).toBe(200);
    // A user signing in now gets a token from the new key, which works too.
    const later = await signUp(rig.server);
    expect((await client(rig.server.url)('GET', `${A}/profile`, undefined, { token: later.token })).status).toBe(200);
  });
});

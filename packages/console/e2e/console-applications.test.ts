/**
 * The console's applications screen in Chromium against the real server: an operator registers a
 * confidential application and sees its secret once (gone after a reload), gets a new secret that
 * differs from the first, and removes the application; the server's list follows each step.
 */

import { join } from 'node:path';
import { adminRoutes } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  operatorToken,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;

beforeAll(async () => {
  rig = await startConsoleRig();
  page = await openConsoleAsOperator(rig, { hash: '#/applications', heading: '应用' });
  // The build and the first sign-in take minutes on a loaded machine.
}, 300_000);
afterAll(() => rig?.close());

const NAME = 'Lesson Planner';
const REDIRECT = 'https://planner.example/callback';

/** The applications the server lists now, through the operator's own API. */
const listed = async () => {
  const token = await operatorToken(rig);
  const answer = await client(rig.server.url)<{ client_id: string; name: string }[]>(
    'GET',
    adminRoutes.listApplications.path,
    undefined,
    { token },
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

const shownSecret = async () =>
  (await page.getByRole('status').filter({ hasText: NAME }).locator('code').textContent()) ?? '';

describe('the applications screen', () => {
  it('registers an application, shows its secret once, gives it a new one, and removes it', async () => {
    await page.getByText('还没有注册应用。').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('名称').fill(NAME);
    await page.getByLabel('回调地址（每行一个）').fill(REDIRECT);
    await page.getByRole('button', { name: '注册', exact: true }).click();
    const table = page.getByRole('table');
    await table.getByRole('rowheader', { name: NAME }).waitFor();
    const first = await shownSecret();
    expect(first.length).toBeGreaterThanOrEqual(16);
    const [registered] = await listed();
    expect(registered?.name).toBe(NAME);
    await table.getByText(registered?.client_id ?? '?').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // Shown once: a reload lists the application but not its secret.
    await page.reload();
    await table.getByRole('rowheader', { name: NAME }).waitFor();
    expect(await page.getByText(first).count()).toBe(0);

    // A new secret asks first, naming the application: Cancel keeps the secret, the dialog's button replaces it.
    await table.getByRole('button', { name: '更换密钥' }).click();
    const asked = page.getByRole('dialog', { name: `为 ${NAME} 更换密钥？` });
    await asked.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-confirm-new-secret.zh-CN.1280.png') });
    await asked.getByRole('button', { name: '取消' }).click();
    await asked.waitFor({ state: 'hidden' });
    expect(await page.getByText(`${NAME} 的密钥只显示这一次`).count()).toBe(0);
    await table.getByRole('button', { name: '更换密钥' }).click();
    await asked.getByRole('button', { name: '更换密钥' }).click();
    await page.getByText(`${NAME} 的密钥只显示这一次`).waitFor();
    const second = await shownSecret();
    expect(second.length).toBeGreaterThanOrEqual(16);
    expect(second).not.toBe(first);

    // Its redirect URIs and PKCE are changed after registration.
    await table.getByRole('button', { name: '修改' }).click();
    await page.getByLabel('回调地址（每行一个）').nth(0).fill(`${REDIRECT}\nhttps://learn.example.com/callback`);
    await page.getByLabel('机密应用也要求 PKCE').nth(0).check();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText(`已保存 ${NAME}。`).waitFor();
    await table.getByText('https://learn.example.com/callback').waitFor();

    // Removing asks first, naming the application; Escape leaves it listed.
    await table.getByRole('button', { name: '删除' }).click();
    const removing = page.getByRole('dialog', { name: `删除 ${NAME}？` });
    await removing.waitFor();
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-confirm-remove-application.zh-CN.1280.png') });
    await page.keyboard.press('Escape');
    await removing.waitFor({ state: 'hidden' });
    expect((await listed()).map((app) => app.name)).toEqual([NAME]);
    await table.getByRole('button', { name: '删除' }).click();
    await removing.getByRole('button', { name: '删除' }).click();
    await page.getByText(`已删除 ${NAME}。`).waitFor();
    await page.getByText('还没有注册应用。').waitFor();
    expect(await listed()).toEqual([]);
  });
});

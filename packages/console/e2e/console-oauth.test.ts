/**
 * The WeChat/QQ screen of the console, in Chromium against the real server: each product's choice loads,
 * a change is saved and shown in effect, survives a reload, and "as configured" removes it again.
 */

import { PID } from '@edupass/test-kit/accounts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, type ConsoleRig, signInAsOperator, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;

beforeAll(async () => {
  rig = await startConsoleRig();
  page = await signInAsOperator(rig, '#/oauth');
});
afterAll(() => rig?.close());

const choice = () => page.getByRole('combobox', { name: `${PID} 的免 state 授权码` });
const inEffect = () => page.locator(`#oauth-state-${PID}-state`).textContent();
const save = async (value: string) => {
  await choice().selectOption(value);
  await page.getByRole('button', { name: `保存 ${PID} 的设置` }).click();
  await page.getByText(`${PID}：已保存。`).waitFor();
};

describe('code sign-in without state', () => {
  it('loads each product, saves a choice that takes effect and stays, and returns to the configuration', async () => {
    await page.getByRole('heading', { name: '微信与 QQ 登录', level: 1 }).waitFor();
    await choice().waitFor();
    expect(await inEffect()).toBe('当前生效: 拒绝（需要 state）');
    expect(await accessibilityViolations(page)).toEqual([]);

    await save('on');
    await expect.poll(inEffect).toBe('当前生效: 接受');
    await page.reload();
    await page.getByRole('heading', { name: '微信与 QQ 登录', level: 1 }).waitFor();
    await expect.poll(() => choice().inputValue()).toBe('on');
    expect(await inEffect()).toBe('当前生效: 接受');

    await save('');
    await expect.poll(inEffect).toBe('当前生效: 拒绝（需要 state）');
    expect(await choice().inputValue()).toBe('');
  });
});

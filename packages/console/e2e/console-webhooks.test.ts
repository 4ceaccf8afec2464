/**
 * The console's webhooks screen in Chromium against the real server: an operator adds an endpoint
 * (the secret is shown once), a sign-up reaches the receiver signed so that `standardwebhooks`
 * verifies it, the delivery log shows it delivered, and Resend delivers it again with the same id.
 * Turning an endpoint off and removing it ask first, in a dialog naming its URL.
 */

import { join } from 'node:path';
import { signUp } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let receiver: WebhookReceiver;

beforeAll(async () => {
  rig = await startConsoleRig();
  receiver = await startWebhookReceiver();
  page = await openConsoleAsOperator(rig, { hash: '#/webhooks', heading: 'Webhook' });
});
afterAll(async () => {
  await receiver?.close();
  await rig?.close();
});

describe('the webhooks screen', () => {
  it('adds an endpoint, shows its delivery log, and resends a delivery', async () => {
    await page.getByLabel('产品（* 表示全部）').fill('edupass');
    await page.getByLabel('地址').fill(receiver.url);
    await page.getByRole('button', { name: '添加', exact: true }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);

    const user = await signUp(rig.server);
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2), { timeout: 20_000 });
    const created = receiver.received
      .map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: { user_id: number };
          },
      )
      .find((e) => e.type === 'user.created');
    expect(created?.data.user_id).toBe(user.userId);

    const log = page.getByRole('table', { name: /投递记录/ });
    // The receiver has the requests before the server has recorded their answers: reload until shown.
    await vi.waitFor(
      async () => {
        await page.reload();
        await log.getByRole('rowheader', { name: /user\.created/ }).waitFor();
        expect(await log.getByText('已送达').count()).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    const row = log.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /user\.created/ }) });
    const id = String(receiver.received.find((r) => r.body.includes('user.created'))?.headers['webhook-id']);
    await row.getByRole('button', { name: '重新发送' }).click();
    await page.getByText('该事件将再次投递。').waitFor();
    await vi.waitFor(() => expect(receiver.received.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(2), {
      timeout: 20_000,
    });
  });

  it('turning off and removing an endpoint ask first, naming its URL; Cancel or Escape leaves it', async () => {
    const card = page.getByRole('region', { name: `edupass · ${receiver.url}` });
    await card.waitFor();
    const turnOff = page.getByRole('dialog', { name: `停用 ${receiver.url}？` });
    await card.getByRole('button', { name: '停用' }).click();
    await turnOff.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-confirm-webhook-off.zh-CN.1280.png') });
    await turnOff.getByRole('button', { name: '取消' }).click();
    await turnOff.waitFor({ state: 'hidden' });
    expect(await card.getByText('状态: 启用').count()).toBe(1);
    await card.getByRole('button', { name: '停用' }).click();
    await turnOff.getByRole('button', { name: '停用' }).click();
    await card.getByText('状态: 停用').waitFor();
    // Turning it back on breaks nothing: no question.
    await card.getByRole('button', { name: '启用' }).click();
    await card.getByText('状态: 启用').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    const removing = page.getByRole('dialog', { name: `删除 ${receiver.url}？` });
    await card.getByRole('button', { name: '删除' }).click();
    await removing.waitFor();
    await page.keyboard.press('Escape');
    await removing.waitFor({ state: 'hidden' });
    expect(await card.count()).toBe(1);
    await card.getByRole('button', { name: '删除' }).click();
    await removing.getByRole('button', { name: '删除' }).click();
    await page.getByText('还没有 Webhook 端点。').waitFor();
    expect(await card.count()).toBe(0);
  });
});

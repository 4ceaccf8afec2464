/**
 * A school's WeCom address book in the console, in Chromium against the real server and the test
 * kit's WeCom stand-in: the operator adds it (daily), syncs now, reads the preview's counts (pupils,
 * guardians to confirm by SMS and with the school's code) and confirms; the book's last sync is shown
 * and its schedule changed.
 */
import { adminRoutes } from '@edupass/protocol';
import { type BookPeer, wecomBookPeer } from '@edupass/test-kit/address-book-peers';
import { schoolBook } from '@edupass/test-kit/address-book-school';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ConsoleRig, openConsoleAsOperator, operatorToken, startConsoleRig } from './console-harness.ts';

let rig: ConsoleRig;
let page: Page;
let peer: BookPeer;
let schoolId: number;
const book = schoolBook({
  name: '通讯录实验小学',
  grades: 1,
  classesPerGrade: 2,
  pupilsPerClass: 10,
  mobilePrefix: '1578',
});
const APP = { corpId: 'ww-console-school', secret: 'wecom-app-secret-0123' };

beforeAll(async () => {
  rig = await startConsoleRig();
  peer = await wecomBookPeer(APP, book);
  rig.server.app.ctx.config.eduWecomApiUrl = peer.url;
  schoolId = await eduSteps(rig.server, client(rig.server.url)).addSchool(book.name);
  page = await openConsoleAsOperator(rig, { hash: '#/schools', heading: '学校' });
});
afterAll(async () => {
  await peer?.close();
  await rig?.close();
});

const books = async () =>
  (
    await client(rig.server.url)<{ id: number; schedule: string; last_report: { status: string } | null }[]>(
      'GET',
      adminRoutes.listAddressBooks.path,
      undefined,
      { token: await operatorToken(rig) },
    )
  ).body;

it('adds a WeCom address book, syncs it, confirms the preview and changes its schedule', async () => {
  const card = page.getByRole('region', { name: '家校通讯录' });
  await card.getByLabel('学校 ID', { exact: true }).fill(String(schoolId));
  await card.getByLabel('平台', { exact: true }).selectOption('wecom');
  await card.getByLabel('应用 ID（企业微信 corpid，钉钉 AppKey）', { exact: true }).fill(APP.corpId);
  await card.getByLabel('密钥（加密保存，不再显示）', { exact: true }).fill(APP.secret);
  await card.getByRole('button', { name: '添加通讯录' }).click();
  await card.getByText('已添加通讯录。').waitFor();
  expect(await books()).toMatchObject([{ schedule: 'daily', last_report: null }]);

  await card.getByRole('button', { name: '立即同步' }).click();
  const withPhone = book.guardians.filter((g) => g.mobile !== null).length;
  await card.getByRole('rowheader', { name: '新建学生账号' }).waitFor();
  const count = (what: string) => card.getByRole('row', { name: what }).getByRole('cell').last().textContent();
  expect(await count('新建学生账号')).toBe('20');
  expect(await count('待短信确认的家长')).toBe(String(withPhone));
  expect(await count('待用学校关联码确认的家长（无手机号）')).toBe(String(book.guardians.length - withPhone));
  await card.getByRole('button', { name: '确认导入' }).click();
  await expect.poll(async () => (await books())[0]?.last_report?.status).toBe('preview');
  await card.getByLabel(`同步 ${APP.corpId}`).selectOption('hourly');
  await card.getByText('已保存同步设置。').waitFor();
  expect((await books())[0]?.schedule).toBe('hourly');
  const pupils = await rig.server.app.ctx.db
    .selectFrom('pupil_accounts')
    .select('user_id')
    .where('school_id', '=', schoolId)
    .execute();
  expect(pupils).toHaveLength(20);
});

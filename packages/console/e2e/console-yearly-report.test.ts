/**
 * The yearly report's printable page in the console, in Chromium against the real server: after two
 * children and a 15-year-old sign up and one child is erased, the operator shows the report for the
 * year on "Staff access and requests" and prints it (Chromium's PDF, read back with pdftotext): the
 * printed page holds the filing's sections and figures and nothing of the console around it, in
 * Chinese and then in English. Axe-clean.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routes } from '@edupass/protocol';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
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
const year = new Date(Date.now() + 8 * 3_600_000).getUTCFullYear();

/** The page as Chromium prints it, as the text pdftotext reads from the PDF, spaces collapsed. */
const printedText = async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'yearly-print-')), 'report.pdf');
  writeFileSync(file, await page.pdf({ format: 'A4' }));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
};

beforeAll(async () => {
  rig = await startConsoleRig();
  const call = client(rig.server.url);
  const edu = eduSteps(rig.server, call);
  const [child, , teen] = [await edu.signUpAged(9), await edu.signUpAged(11), await edu.signUpAged(15)];
  if (!child || !teen) throw new Error('no accounts');
  const token = await operatorToken(rig);
  const erased = await call('DELETE', pathOf(routes.deleteUser.path, { id: child.userId }), undefined, { token });
  expect(erased.status).toBe(204);
  page = await openConsoleAsOperator(rig, { hash: '#/rights', heading: '人员访问与个人信息请求' });
});
afterAll(() => rig?.close());

describe('the yearly report, printed', () => {
  it('prints the filing’s sections and figures alone, in Chinese and in English', async () => {
    await page.getByLabel('年份').fill(String(year));
    await page.getByRole('button', { name: '显示打印版' }).click();
    await page.getByRole('heading', { name: `未成年人个人信息保护合规审计：${year} 年度数据` }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-yearly-report.zh-CN.png'), fullPage: true });

    const zh = await printedText();
    expect(zh).toContain(`未成年人个人信息保护合规审计：${year} 年度数据`);
    expect(zh).toContain('一、报告期');
    expect(zh).toMatch(/2\.1 本年新增儿童账号数 2\b/);
    expect(zh).toMatch(/2\.3 本年删除的儿童账号数 1\b/);
    expect(zh).toMatch(/3\.1 本年新增未成年人账号数 3\b/);
    expect(zh).toMatch(/3\.2 年末未成年人账号数 2\b/);
    expect(zh).toContain('七、账号删除');
    // Nothing of the console around it: no sections' navigation, no buttons, no other card.
    for (const around of ['人员访问与个人信息请求', '个人信息请求', '显示打印版', '退出登录']) {
      expect(zh).not.toContain(around);
    }

    await page.getByLabel('语言').selectOption('en');
    await page
      .getByRole('heading', { name: `Yearly compliance audit of minors' personal information: figures for ${year}` })
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const en = await printedText();
    expect(en).toContain('1. Reporting period');
    expect(en).toMatch(/2\.1 Children's accounts opened in the year 2\b/);
    expect(en).toMatch(/3\.3 Minors' accounts erased in the year 1\b/);
    expect(en).not.toContain('Show the printable report');
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-yearly-report.en.png'), fullPage: true });
  });
});

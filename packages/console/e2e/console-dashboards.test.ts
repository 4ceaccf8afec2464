/**
 * The usage and monitoring dashboards drawn from data the real tracker and monitor sent from a site
 * page in Chromium: seven devices, one per day of the past week (the server's clock is moved back a
 * day at a time, so the tracker's server-time offset and the beacons' receipt times follow it).
 * Each dashboard is checked, scanned with axe, and saved as a screenshot.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { bundleForBrowser, keepScreenshot } from '@edupass/test-kit/browser';
import { freePort } from '@edupass/test-kit/child-server';
import { usageDb } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newTestContext } from '../../web/e2e/support/pages.ts';
import {
  accessibilityViolations,
  type ConsoleRig,
  openConsoleAsOperator,
  SCREENSHOTS,
  startConsoleRig,
} from './console-harness.ts';

const DAY = 86_400_000;
/** How long a visit's beacons and events may take to be stored (vi.waitFor's own default is 1 s). */
const SETTLED = { timeout: 30_000, interval: 100 };
const DAYS = 7;
let shift = 0;
let rig: ConsoleRig;
let site: Server;
let siteUrl: string;
const hanging: ServerResponse[] = [];
/** What the site sent, for the assertions: events per key. */
const sent: Record<string, number> = {};

const sitePage = (sdk: string) =>
  createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/slow') return void hanging.push(response);
    if (path === '/sdk.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    if (path.startsWith('/api/lessons')) return void response.writeHead(200).end('{"ok":true}');
    if (path.startsWith('/api/quiz')) return void response.writeHead(400).end('{"error_code":"QUIZ_CLOSED"}');
    if (path.startsWith('/api/grades')) return void response.writeHead(500).end('{}');
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!doctype html><html lang="zh-CN"><title>代数 第7课</title><h1>代数 · 第 7 课</h1><p>方程与不等式</p><script src="/sdk.js"></script>',
      );
  });

/** One device's visit on the day `daysAgo` days back: lessons, videos (timed), a quiz, errors and API calls. */
const visit = async (daysAgo: number, closedPort: number) => {
  shift = -daysAgo * DAY;
  const db = usageDb(rig.server.app.ctx.db);
  const beaconsBefore = (
    await db
      .selectFrom('monitor_beacons')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
  const context = await newTestContext(rig.browser);
  const page = await context.newPage();
  await page.goto(siteUrl);
  await page.waitForFunction(() => 'SDK' in window);
  const synced = page.waitForResponse((r) => r.url().includes('/report/time'));
  const lessons = 3 + (DAYS - daysAgo);
  const plan = { lessons, videos: 2 + (daysAgo % 3), quiz: daysAgo % 2 === 0 ? 2 : 1 };
  await page.evaluate(
    ({ url, user }) => {
      const w = window as unknown as { SDK: typeof import('./console-sdks.browser.ts'); tracker: unknown };
      const tracker = w.SDK.createTracker({
        productCode: 'edupass',
        url,
        consent: { event: true, view: true, device: true, user: true },
      });
      tracker.start();
      tracker.setUser(user);
      w.tracker = tracker;
      w.SDK.createMonitor({ productCode: 'edupass', url }).start();
    },
    { url: rig.server.url, user: `student-${daysAgo % 3}` },
  );
  await (await synced).finished();
  await page.evaluate(
    async ({ plan, closed, slow, daysAgo }) => {
      const w = window as unknown as { tracker: import('@edupass/tracker').Tracker };
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      await sleep(20); // the time answer is applied
      for (let n = 0; n < plan.lessons; n++) w.tracker.track('lesson_open', { lesson: n });
      for (let n = 0; n < plan.quiz; n++) w.tracker.track('quiz_submit', { score: 60 + n });
      w.tracker.track('course_view', {}, 'view');
      for (let n = 0; n < plan.videos; n++) {
        w.tracker.startTimer('video_watch');
        await sleep(40 + 30 * n + 10 * daysAgo);
        w.tracker.endTimer('video_watch', { video: n });
      }
      await w.tracker.flush();
      setTimeout(() => {
        throw new TypeError("Cannot read properties of undefined (reading 'score')");
      });
      if (daysAgo % 2 === 0) {
        setTimeout(() => {
          throw new Error('视频播放器加载失败');
        });
      }
      const quiet = (p: Promise<unknown>) => p.catch(() => undefined);
      await Promise.all([
        ...Array.from({ length: 10 }, () => quiet(fetch('/api/lessons'))),
        quiet(fetch('/api/quiz')),
        quiet(fetch('/api/grades')),
        quiet(fetch(`${closed}/api/lessons`)),
        quiet(fetch(slow, { signal: AbortSignal.timeout(200) })),
        (() => {
          const abort = new AbortController();
          const call = quiet(fetch('/slow', { signal: abort.signal }));
          setTimeout(() => abort.abort(), 50);
          return call;
        })(),
      ]);
      await sleep(50);
    },
    { plan, closed: `http://127.0.0.1:${closedPort}`, slow: `${siteUrl}/slow`, daysAgo },
  );
  sent.lesson_open = (sent.lesson_open ?? 0) + plan.lessons;
  sent.quiz_submit = (sent.quiz_submit ?? 0) + plan.quiz;
  sent.video_watch = (sent.video_watch ?? 0) + plan.videos;
  sent.course_view = (sent.course_view ?? 0) + 1;
  // Page end sends the last vitals; everything must be received before the clock moves on.
  await page.close({ runBeforeUnload: true });
  await context.close();
  // In a hook, where expect.poll is not allowed: vi.waitFor.
  await vi.waitFor(async () => {
    const { n } = await db
      .selectFrom('monitor_beacons')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n), `the beacons of the visit ${daysAgo} days ago are stored`).toBeGreaterThanOrEqual(
      Number(beaconsBefore) + 8,
    );
  }, SETTLED);
  // Every event sent so far, key by key: the tracker sends events of its own too, so a total could be
  // reached while the last video_watch is still on its way.
  await vi.waitFor(async () => {
    const rows = await db
      .selectFrom('usage_events')
      .select((eb) => ['event_key', eb.fn.countAll<number>().as('n')])
      .where('event_key', 'in', Object.keys(sent))
      .groupBy('event_key')
      .execute();
    const received = Object.fromEntries(rows.map((row) => [row.event_key, Number(row.n)]));
    expect(received, `the events of the visit ${daysAgo} days ago are stored`).toEqual(sent);
  }, SETTLED);
};

let page: Page;

beforeAll(async () => {
  const [started, sdk] = await Promise.all([
    startConsoleRig({ now: () => Date.now() + shift }),
    bundleForBrowser(new URL('./console-sdks.browser.ts', import.meta.url).pathname, 'SDK'),
  ]);
  rig = started;
  site = sitePage(sdk);
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const closedPort = await freePort();
  for (let daysAgo = DAYS - 1; daysAgo >= 0; daysAgo--) await visit(daysAgo, closedPort);
  shift = 0;
  page = await openConsoleAsOperator(rig);
  // Seven visits in a browser: about 100 s on a loaded two-core machine.
}, 300_000);

afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((done) => site?.close(done));
  await rig?.close();
});

const section = (name: string) => page.getByRole('navigation').getByRole('link', { name }).click();
const textOf = (region: string) => page.getByRole('region', { name: region }).textContent();

describe('usage dashboard', () => {
  it('shows events over time, top events, unique users and devices, and duration percentiles', async () => {
    await section('使用统计');
    await page.getByRole('img', { name: /折线图/ }).waitFor();
    await expect.poll(() => textOf('独立用户与设备')).toMatch(/设备\s*7/);
    expect(await textOf('独立用户与设备')).toMatch(/登录用户\s*3/);
    const top = await textOf('热门事件');
    expect(top).toContain(`lesson_open${sent.lesson_open}`);
    expect(top).toContain(`quiz_submit${sent.quiz_submit}`);
    const durations = await textOf('计时事件时长分位数（毫秒）');
    expect(durations).toContain(`video_watch${sent.video_watch}`);
    // The chart has one point per day, seven days; its axis writes each date once.
    expect(await page.locator('.console-chart canvas').count()).toBe(1);
    const ticks = ((await page.locator('.console-chart').getAttribute('data-x-ticks')) ?? '').split('|');
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ticks).size).toBe(ticks.length);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-usage.png'), fullPage: true });

    // The same series as a table.
    await page.getByRole('button', { name: '表格' }).click();
    const rows = page.getByRole('region', { name: '事件趋势' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(DAYS);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-usage-table.png'), fullPage: true });
  });

  it('narrows to one event key and a shorter range', async () => {
    await page.getByLabel('事件键（可选）').fill('quiz_submit');
    await page.getByLabel('时间范围').selectOption('24h');
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(() => textOf('热门事件')).not.toContain('lesson_open');
    expect(await textOf('热门事件')).toContain('quiz_submit');
  });
});

describe('monitoring dashboard', () => {
  it('shows JS errors by message, API failures by path with 601–603 and business errors, and vitals p75', async () => {
    await section('监控');
    const errors = page.getByRole('region', { name: 'JavaScript 错误' });
    await errors.locator('tbody tr').first().waitFor();
    const errorText = await errors.textContent();
    expect(errorText).toContain("Cannot read properties of undefined (reading 'score')");
    expect(errorText).toContain('视频播放器加载失败');
    const scoreRow = errors.locator('tbody tr', { hasText: 'reading' });
    expect(await scoreRow.locator('td').first().textContent()).toBe(String(DAYS));

    const api = page.getByRole('region', { name: '按路径统计的接口失败' });
    const grades = api.locator('tbody tr', { hasText: '/api/grades' });
    expect(await grades.textContent()).toContain(`500 ×${DAYS}`);
    const quiz = api.locator('tbody tr', { hasText: '/api/quiz' });
    expect(await quiz.textContent()).toContain(`400 ×${DAYS}`);
    const closed = api.locator('tbody tr', { hasText: /127\.0\.0\.1:\d+\/api\/lessons/ });
    expect(await closed.locator('td').nth(3).textContent()).toBe(String(DAYS)); // 601 column
    const slow = api.locator('tbody tr', { hasText: '/slow' });
    const slowCells = await slow.locator('td').allTextContents();
    expect(slowCells[4]).toBe(String(DAYS)); // 602 timeout
    expect(slowCells[5]).toBe(String(DAYS)); // 603 aborted

    await page.getByRole('img', { name: /LCP、INP、FCP、TTFB/ }).waitFor();
    const overall = await textOf('整个时间范围的 p75');
    expect(overall).toMatch(/TTFB[\d.,]+ ms/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-monitor.png'), fullPage: true });
  });
});

describe('the other screens', () => {
  it('users, agreements and captcha policy pass axe, in Chinese and in English', async () => {
    for (const [name, file] of [
      ['用户', 'console-users.png'],
      ['协议', 'console-agreements.png'],
      ['验证码策略', 'console-captcha.png'],
    ] as const) {
      await section(name);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      await page.locator('.console-muted[role=status], .console-user-list, .console-card').first().waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await keepScreenshot(page, { path: join(SCREENSHOTS, file), fullPage: true });
    }
    // Keyboard: the first Tab reaches the skip control, which moves focus to the screen.
    await page.goto(`${rig.server.url}/console.html#/agreements`);
    await page.reload();
    await page.getByRole('heading', { name: '协议', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('跳到正文');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('console-main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);

    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('heading', { name: 'Agreements', level: 1 }).waitFor();
    await section('Usage');
    await page.getByRole('heading', { name: 'Unique users and devices' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-usage-en.png'), fullPage: true });
  });
});

describe('the operator session', () => {
  it('an expired access token is refreshed once, without signing the operator out', async () => {
    const tokenOf = () =>
      page.evaluate(
        () =>
          (
            JSON.parse(sessionStorage.getItem('edupass.console.tokens') ?? '{}') as {
              tokens?: { access?: { token?: string } };
            }
          ).tokens?.access?.token,
      );
    const before = await tokenOf();
    shift = (rig.server.config.accessTokenTtlSeconds + 60) * 1000;
    try {
      await section('Monitoring');
      await page.getByRole('region', { name: 'JavaScript errors' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Operator sign-in' }).count()).toBe(0);
      const after = await tokenOf();
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
    } finally {
      shift = 0;
    }
  });
});

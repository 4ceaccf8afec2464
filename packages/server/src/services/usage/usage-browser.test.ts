/**
 * The tracker and the monitor in real Chromium against the real server. The page is served from its
 * own origin (as on a customer's site), so the collector is cross-origin as it is in production.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { bundleForBrowser, launchBrowser } from '@edupass/test-kit/browser';
import { freePort } from '@edupass/test-kit/child-server';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageDb } from '../../store/usage/events.ts';

let server: TestServer;
let browser: Browser;
let site: Server;
let siteUrl: string;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  const [started, sdk, launched] = await Promise.all([
    startTestServer(),
    bundleForBrowser(new URL('../../../../test-kit/src/usage-sdks.browser.ts', import.meta.url).pathname, 'EP'),
    launchBrowser(),
  ]);
  server = started;
  browser = launched;
  site = createServer((request, response) => {
    if (request.url === '/slow') {
      hanging.push(response); // never answered: the monitor's timeout case
      return;
    }
    if (request.url === '/sdk.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>Lesson</title><h1>Algebra, lesson 7</h1><script src="/sdk.js"></script>');
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  for (const response of hanging) response.destroy();
  await browser?.close();
  await new Promise((done) => site?.close(done));
  await server?.close();
});

const db = () => usageDb(server.app.ctx.db);

/** Polls until `read` satisfies `done`; answers the last value (the assertion after it says what was wrong). */
const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const eventsLike = (prefix: string) =>
  db().selectFrom('usage_events').selectAll().where('event_key', 'like', `${prefix}%`).orderBy('event_id').execute();

const openSite = async (context?: BrowserContext): Promise<Page> => {
  const page = await (context ?? (await browser.newContext())).newPage();
  await page.goto(siteUrl);
  await page.waitForFunction(() => 'EP' in window);
  return page;
};

/** Creates `window.tracker` in the page; `manualTimer` leaves the 500 ms timer out, so only page end or flush sends. */
const startTracker = (page: Page, consent: Record<string, boolean>, manualTimer = false) =>
  page.evaluate(
    ({ url, consent, manualTimer }) => {
      const w = window as unknown as { EP: typeof import('@edupass/test-kit/usage-sdks.browser'); tracker: unknown };
      w.tracker = w.EP.createTracker({
        productCode: 'edupass',
        url,
        consent,
        ...(manualTimer ? { timers: { every: () => () => {} } } : {}),
      });
      (w.tracker as { start(): void }).start();
    },
    { url: server.url, consent, manualTimer },
  );

type PageTracker = import('@edupass/tracker').Tracker;
const inPage = <T>(page: Page, run: (tracker: PageTracker) => T | Promise<T>) =>
  page.evaluate(`(${run.toString()})(window.tracker)`) as Promise<T>;

const reportPosts = (target: Page | BrowserContext) => {
  const posts: string[] = [];
  target.on('request', (request: Request) => {
    if (request.method() === 'POST' && request.url().startsWith(`${server.url}/report/`))
      posts.push(request.postData() ?? '');
  });
  return posts;
};

describe('tracker in Chromium', () => {
  it('events queued when the page closes arrive, sent by the page-end beacon', async () => {
    const page = await openSite();
    await startTracker(page, { event: true }, true);
    await inPage(page, (t) => {
      for (let n = 0; n < 3; n++) t.track(`closed-${n}`, { n });
    });
    await page.close({ runBeforeUnload: true });
    const rows = await waitFor(
      () => eventsLike('closed-'),
      (r) => r.length === 3,
    );
    expect(rows.map((r) => r.event_key).sort()).toEqual(['closed-0', 'closed-1', 'closed-2']);
  });

  it('time the tab spends hidden is left out of a timed event', async () => {
    const page = await openSite();
    // Headless Chromium never hides a tab (tab switches, minimising and background targets were
    // tried), so the page is told it is hidden the way the browser tells it: visibilityState + event.
    await page.evaluate(() => {
      const state = { value: 'visible' };
      Object.defineProperty(document, 'visibilityState', { get: () => state.value, configurable: true });
      (window as unknown as { setVisibility(v: string): void }).setVisibility = (v: string) => {
        state.value = v;
        document.dispatchEvent(new Event('visibilitychange'));
      };
    });
    await startTracker(page, { event: true });
    // The visible time as the page saw it, bracketed: each call's clock reading lies between the
    // readings around it, however late a loaded machine runs the timers.
    const visible = await page.evaluate(async () => {
      const w = window as unknown as { tracker: PageTracker; setVisibility(v: string): void };
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const before = Date.now();
      w.tracker.startTimer('timed-video');
      const started = Date.now();
      await sleep(400);
      const hiding = Date.now();
      w.setVisibility('hidden');
      const hidden = Date.now();
      await sleep(1500);
      const showing = Date.now();
      w.setVisibility('visible');
      const shown = Date.now();
      await sleep(400);
      const ending = Date.now();
      w.tracker.endTimer('timed-video', { lesson: 7 });
      const ended = Date.now();
      await w.tracker.flush();
      return { least: hiding - started + (ending - shown), most: hidden - before + (ended - showing) };
    });
    const [row] = await waitFor(
      () => eventsLike('timed-'),
      (r) => r.length === 1,
    );
    // The hidden 1.5 s would put it far above `most`.
    expect(row?.dur).toBeGreaterThanOrEqual(visible.least);
    expect(row?.dur).toBeLessThanOrEqual(visible.most);
    await page.close();
  });

  it('without consent nothing is sent and nothing is written to storage', async () => {
    const page = await openSite();
    const posts = reportPosts(page);
    await startTracker(page, {});
    const stored = await inPage(page, async (t) => {
      t.track('noconsent-a', { x: 1 });
      t.track('noconsent-b', {}, 'view');
      t.startTimer('noconsent-t');
      t.endTimer('noconsent-t');
      t.setUser('42');
      await t.flush();
      return Object.keys(localStorage);
    });
    await page.goto('about:blank'); // page end: pagehide
    expect(stored).toEqual([]);
    expect(posts).toEqual([]);
    expect(await eventsLike('noconsent-')).toEqual([]);
  });

  it('offline, then online in a later page: each event is delivered exactly once', async () => {
    const context = await browser.newContext();
    const posts = reportPosts(context);
    const page = await openSite(context);
    await context.setOffline(true);
    await startTracker(page, { event: true });
    await inPage(page, (t) => {
      for (let n = 0; n < 5; n++) t.track(`offline-${n}`, { n });
    });
    // The queue reaches storage on the next tick; nothing can be sent.
    await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('ep:q:')));
    const closed = new Promise((resolve) => page.once('close', resolve));
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(posts).toEqual([]);

    await context.setOffline(false);
    const next = await openSite(context);
    await startTracker(next, { event: true });
    const rows = await waitFor(
      () => eventsLike('offline-'),
      (r) => r.length === 5,
    );
    expect(rows.map((r) => r.event_key).sort()).toEqual([
      'offline-0',
      'offline-1',
      'offline-2',
      'offline-3',
      'offline-4',
    ]);
    await next.waitForFunction(() => !Object.keys(localStorage).some((k) => k.startsWith('ep:q:')));
    // Playwright reports requests asynchronously; the rows may be committed before the event lands.
    const sentIds = () =>
      posts.flatMap((body) => (JSON.parse(body) as { data: { b: { i: string }[] } }).data.b.map((e) => e.i));
    const sent = await waitFor(
      async () => sentIds(),
      (ids) => ids.length >= 5,
    );
    expect(sent).toHaveLength(5);
    expect(new Set(sent)).toEqual(new Set(rows.map((r) => r.event_id)));
    await context.close();
  });

  it('keeps the device id in a 30-day cookie on the shared parent domain and reports it as uid', async () => {
    const context = await browser.newContext();
    const posts = reportPosts(context);
    // A subdomain of a school's site, served by the test site through the browser's request routing.
    await context.route('http://lessons.school.test/**', async (route) =>
      route.fulfill({ response: await route.fetch({ url: siteUrl + new URL(route.request().url()).pathname }) }),
    );
    const page = await context.newPage();
    await page.goto('http://lessons.school.test/');
    await page.waitForFunction(() => 'EP' in window);
    await page.evaluate(async (url) => {
      const w = window as unknown as { EP: typeof import('@edupass/test-kit/usage-sdks.browser') };
      const options = { productCode: 'edupass', url, consent: { event: true, device: true } };
      const tracker = w.EP.createTracker({ ...options, cookieDomain: '.school.test' });
      tracker.start();
      tracker.track('uid-cookie');
      await tracker.flush();
    }, server.url);
    const cookie = (await context.cookies()).find((c) => c.name === 'ep_did');
    expect(cookie).toMatchObject({ domain: '.school.test', path: '/', sameSite: 'Lax' });
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
    const sent = await waitFor(
      async () => posts,
      (p) => p.length > 0,
    );
    expect((JSON.parse(sent[0] ?? '{}') as { data: { e: { uid?: string } } }).data.e.uid).toBe(cookie?.value);
    await context.close();
  });

  it('holds at most 1000 events, drops an event over 5000 and keeps each request within 30000', async () => {
    const page = await openSite();
    const posts = reportPosts(page);
    await startTracker(page, { event: true }, true);
    await inPage(page, async (t) => {
      t.track('cap-big', { s: 'x'.repeat(2000) });
      for (let n = 0; n < 1200; n++) t.track(`cap-${n}`, { n, pad: 'p'.repeat(40) });
      await t.flush();
    });
    const rows = await waitFor(
      () => eventsLike('cap-'),
      (r) => r.length >= 1000,
    );
    expect(rows).toHaveLength(1000);
    expect(rows.some((r) => r.event_key === 'cap-big')).toBe(false);
    expect(posts.length).toBeGreaterThan(1);
    for (const body of posts) expect(body.length * 3).toBeLessThanOrEqual(30_000);
    await page.close();
  });
});

describe('monitor in Chromium', () => {
  it('reports a thrown error, a failed fetch (601), a timeout (602) and a web-vital', async () => {
    const closedPort = await freePort();
    const page = await openSite();
    const started = Date.now();
    await page.evaluate(
      ({ url, closed, slow }) => {
        const w = window as unknown as { EP: typeof import('@edupass/test-kit/usage-sdks.browser') };
        w.EP.createMonitor({ productCode: 'edupass', url }).start();
        setTimeout(() => {
          throw new Error('browser-boom');
        });
        fetch(`${closed}/api/lessons`).catch(() => {});
        fetch(slow, { signal: AbortSignal.timeout(300) }).catch(() => {});
      },
      { url: server.url, closed: `http://127.0.0.1:${closedPort}`, slow: `${siteUrl}/slow` },
    );
    const beacons = () => db().selectFrom('monitor_beacons').selectAll().where('received_at', '>=', started).execute();
    const rows = await waitFor(beacons, (r) => {
      const has = (kind: string, test: (row: (typeof r)[number]) => boolean) =>
        r.some((row) => row.kind === kind && test(row));
      return (
        has('error', (row) => row.name?.includes('browser-boom') === true) &&
        has('api', (row) => row.code === 601) &&
        has('api', (row) => row.code === 602) &&
        has('perf', () => true)
      );
    });
    expect(rows).toContainEqual(expect.objectContaining({ kind: 'error', name: 'browser-boom', page: '/' }));
    expect(rows).toContainEqual(
      expect.objectContaining({
        kind: 'api',
        code: 601,
        method: 'GET',
        url: `127.0.0.1:${closedPort}/api/lessons`,
        business: 0,
      }),
    );
    expect(rows).toContainEqual(expect.objectContaining({ kind: 'api', code: 602, url: '/slow' }));
    const vital = rows.find((row) => row.kind === 'perf');
    expect(['TTFB', 'FCP', 'LCP', 'CLS', 'INP']).toContain(vital?.name);
    expect(vital?.value).toBeGreaterThanOrEqual(0);
    await page.close();
  });
});

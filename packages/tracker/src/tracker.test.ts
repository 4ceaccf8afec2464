import { STORAGE_FALLBACK_DAYS, TRACKER, UID_COOKIE_DAYS } from '@edupass/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackerOptions } from './options.ts';
import { retryAfterSeconds } from './ports.ts';
import { fakeCookies, fakeTransport, manualTime, memoryStore, recordingLogger } from './testing/fakes.ts';
import { createTracker } from './tracker.ts';

const ALL = { event: true, view: true, user: true, app: true, device: true };

const setup = (extra: Partial<TrackerOptions> = {}, shared = memoryStore(), time = manualTime()) => {
  const net = fakeTransport();
  const log = recordingLogger();
  const tracker = createTracker({
    productCode: 'edupass',
    url: 'https://collector.test/',
    consent: ALL,
    storage: shared.store,
    transport: net.transport,
    timers: time.timers,
    clock: time.clock,
    logger: log.logger,
    ...extra,
  });
  return { tracker, time, net, log, storage: shared };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('configuration', () => {
  it('a missing product code switches reporting off with "Please set product code"', async () => {
    const { tracker, net, log, time } = setup({ productCode: '' });
    tracker.start();
    tracker.track('click');
    await time.advance(2000);
    await tracker.flush();
    expect(log.warnings).toEqual(['Please set product code']);
    expect(net.posts).toEqual([]);
  });

  it('a missing url switches reporting off with "Please set url"', async () => {
    const { tracker, net, log, time } = setup({ url: '' });
    tracker.start();
    tracker.track('click');
    await time.advance(2000);
    expect(log.warnings).toEqual(['Please set url']);
    expect(net.posts).toEqual([]);
  });

  it('does nothing before start: no timer, no request', () => {
    const { tracker, net, time } = setup();
    tracker.track('click');
    expect(time.jobs).toHaveLength(0);
    expect(net.posts).toHaveLength(0);
  });
});

describe('payload', () => {
  it('sends the short-key batch of compatibility.md every 500 ms', async () => {
    const { tracker, net, time } = setup({ isDev: true });
    tracker.start();
    tracker.setUser('42');
    tracker.track('lesson_open', { lesson: 7 });
    await time.advance(TRACKER.sendIntervalMs - 1);
    expect(net.posts).toHaveLength(0);
    await time.advance(1);
    expect(net.posts).toHaveLength(1);
    const post = net.posts[0]!;
    expect(post.url).toBe('https://collector.test/report/edupass');
    expect(post.body).toMatchObject({ type: 0, alg: '', data: { m: { d: 1, p: 'edupass', tst: 1, h: 0 } } });
    expect(post.body.data.e).toMatchObject({ user_id: '42' });
    expect(post.body.data.e.process_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(post.body.data.e.uid).toMatch(/^[0-9a-f-]{36}$/);
    const [event] = post.body.data.b;
    expect(event).toEqual({
      e: 'lesson_open',
      i: expect.any(String),
      t: time.clock.now() / 1000 - 0.5,
      d: { lesson: 7 },
    });
  });

  it('event ids sort by time and never repeat', async () => {
    const { tracker, net, time } = setup();
    tracker.start();
    for (let i = 0; i < 200; i++) {
      tracker.track('tick', { i });
      await time.advance(1);
    }
    await tracker.flush();
    const ids = net.sent().map((e) => e.i);
    expect(new Set(ids).size).toBe(200);
    expect(ids).toEqual([...ids].sort());
  });

  it('events need a key', () => {
    const { tracker, log } = setup();
    tracker.track('');
    tracker.track('x'.repeat(200));
    expect(log.warnings).toHaveLength(2);
  });

  it('corrects timestamps by the server-time offset', async () => {
    const { tracker, net, time } = setup();
    net.state.serverNow = time.clock.now() + 3_600_000;
    tracker.start();
    await new Promise((resolve) => setImmediate(resolve));
    tracker.track('late');
    await tracker.flush();
    expect(net.sent()[0]?.t).toBe(Math.floor((time.clock.now() + 3_600_000) / 1000));
  });
});

describe('limits', () => {
  it('drops an event over 5000 (3× its JSON length) and keeps one just under', async () => {
    const { tracker, net, log } = setup();
    tracker.start();
    tracker.track('big', { s: 'x'.repeat(1700) });
    tracker.track('fits', { s: 'x'.repeat(1500) });
    await tracker.flush();
    expect(net.sent().map((e) => e.e)).toEqual(['fits']);
    expect(log.warnings[0]).toContain('size limit');
  });

  it('splits the queue into requests of at most 30000 (3× JSON length)', async () => {
    const { tracker, net } = setup();
    tracker.start();
    for (let i = 0; i < 100; i++) tracker.track('page', { s: 'y'.repeat(1000) });
    await tracker.flush();
    expect(net.posts.length).toBeGreaterThan(1);
    for (const post of net.posts) expect(post.raw.length * 3).toBeLessThanOrEqual(TRACKER.requestSizeLimit);
    expect(net.sent()).toHaveLength(100);
  });

  it('holds at most 1000 events', async () => {
    const { tracker, net, log } = setup();
    for (let i = 0; i < 1200; i++) tracker.track('e', { i });
    tracker.start();
    await tracker.flush();
    expect(net.sent()).toHaveLength(TRACKER.queueMax);
    expect(log.warnings).toHaveLength(200);
  });
});

describe('delivery', () => {
  it('backs off after a failure, then delivers', async () => {
    const { tracker, net, time } = setup();
    tracker.start();
    net.state.status = 503;
    tracker.track('a');
    await time.advance(500);
    expect(net.posts).toHaveLength(1);
    await time.advance(500);
    expect(net.posts).toHaveLength(1);
    net.state.status = 204;
    await time.advance(5000);
    expect(net.posts).toHaveLength(2);
    await time.advance(5000);
    expect(net.posts).toHaveLength(2);
  });

  it('an overloaded server (503 with Retry-After) keeps the batch and is not asked again before then', async () => {
    const { tracker, net, time } = setup();
    tracker.start();
    net.state.status = 503;
    net.state.retryAfter = 30;
    tracker.track('a');
    await time.advance(500);
    expect(net.posts).toHaveLength(1);
    net.state.status = 204;
    net.state.retryAfter = undefined;
    // Plain back-off would have retried within 2 s; Retry-After says 30.
    await time.advance(29_000);
    expect(net.posts).toHaveLength(1);
    await time.advance(8000);
    expect(net.posts).toHaveLength(2);
    expect(net.sent().map((e) => e.e)).toEqual(['a', 'a']);
    expect(net.posts[1]?.body.data.b[0]?.i).toBe(net.posts[0]?.body.data.b[0]?.i);
    await time.advance(5000);
    expect(net.posts).toHaveLength(2);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(new Date(now + 45_000).toUTCString(), now)).toBe(45);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });

  it('a transport that throws is a failed send, retried later, never a stuck queue', async () => {
    const { tracker, net, time } = setup();
    const post = net.transport.post;
    let calls = 0;
    net.transport.post = (url, body) => {
      calls++;
      if (calls === 1) throw new Error('no fetch here');
      return post(url, body);
    };
    tracker.start();
    tracker.track('a');
    await time.advance(500);
    expect(net.posts).toHaveLength(0);
    await time.advance(5000);
    expect(net.sent().map((e) => e.e)).toEqual(['a']);
  });

  it('a refused batch (4xx) is dropped, not retried forever', async () => {
    const { tracker, net, time, log } = setup();
    tracker.start();
    net.state.status = 400;
    tracker.track('a');
    await time.advance(5000);
    expect(net.posts).toHaveLength(1);
    expect(log.warnings[0]).toContain('HTTP 400');
  });

  it('sends nothing while offline and everything once back online', async () => {
    const online = { onLine: false };
    vi.stubGlobal('navigator', online);
    const { tracker, net, time } = setup();
    tracker.start();
    tracker.track('a');
    tracker.track('b');
    await time.advance(3000);
    expect(net.posts).toHaveLength(0);
    online.onLine = true;
    await time.advance(500);
    expect(net.sent().map((e) => e.e)).toEqual(['a', 'b']);
  });

  it('unsent events survive a reload and keep their ids', async () => {
    const storage = memoryStore();
    const first = setup({}, storage);
    first.net.state.status = 0;
    first.tracker.start();
    first.tracker.track('a');
    first.tracker.track('b');
    await first.time.advance(500);
    first.tracker.stop();
    const ids = first.net.sent().map((e) => e.i);

    const second = setup({}, storage);
    second.tracker.start();
    await second.tracker.flush();
    expect(second.net.sent().map((e) => e.i)).toEqual(ids);
    await second.time.advance(500);
    expect([...storage.data.keys()].filter((k) => k.startsWith('ep:q:'))).toEqual([]);
  });

  it('keeps storage within its budget, newest first', async () => {
    const { tracker, storage, net, time } = setup({ storageLimit: 2000 });
    net.state.status = 0;
    tracker.start();
    for (let i = 0; i < 50; i++) tracker.track('e', { i, pad: 'z'.repeat(50) });
    await time.advance(500);
    const stored = [...storage.data.entries()].find(([k]) => k.startsWith('ep:q:'))?.[1] ?? '';
    expect(stored.length).toBeLessThanOrEqual(2000);
    expect(stored).toContain('"i":49');
  });

  it("page end beacons at most 60 KB (the browsers' in-flight cap) and keeps the rest for the next page", () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const { tracker, net, storage } = setup();
    tracker.start();
    for (let i = 0; i < 200; i++) tracker.track('e', { i, pad: 'q'.repeat(1000) });
    page.dispatchEvent(new Event('pagehide'));
    const beaconed = net.beacons.flatMap((b) => b.body.data.b);
    expect(net.beacons.reduce((sum, b) => sum + b.raw.length, 0)).toBeLessThanOrEqual(60_000);
    const kept = [...storage.data.entries()].find(([k]) => k.startsWith('ep:q:'))?.[1] ?? '[]';
    expect(beaconed.length + (JSON.parse(kept) as unknown[]).length).toBe(200);
  });

  it('page end hands the queue to beacons and stores what they refuse', () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const { tracker, net, storage } = setup();
    tracker.start();
    tracker.track('a');
    page.dispatchEvent(new Event('pagehide'));
    expect(net.beacons.map((b) => b.body.data.b.map((e) => e.e))).toEqual([['a']]);
    net.state.beaconOk = false;
    tracker.track('b');
    page.dispatchEvent(new Event('pagehide'));
    expect([...storage.data.values()].join()).toContain('"e":"b"');
  });
});

describe('consents', () => {
  it('with no consent nothing is queued, sent or written to storage', async () => {
    const { tracker, net, time, storage } = setup({ consent: {} });
    tracker.start();
    tracker.track('a');
    tracker.track('v', {}, 'view');
    tracker.startTimer('t');
    tracker.endTimer('t');
    await time.advance(3000);
    await tracker.flush();
    expect(net.posts).toHaveLength(0);
    expect(storage.writes()).toBe(0);
  });

  it('each kind is gated by its own consent', async () => {
    const { tracker, net } = setup({ consent: { view: true } });
    tracker.start();
    tracker.track('a');
    tracker.track('page', {}, 'view');
    tracker.track('launch', {}, 'app');
    tracker.setUser('7');
    await tracker.flush();
    expect(net.sent().map((e) => e.e)).toEqual(['page']);
    // Without device and user consent the environment is empty.
    expect(net.posts[0]?.body.data.e).toEqual({});
  });

  it('revoking a consent drops its queued events and the stored device id', async () => {
    const { tracker, net, storage, time } = setup();
    net.state.status = 0;
    tracker.start();
    tracker.track('a');
    tracker.track('p', {}, 'view');
    await time.advance(500);
    expect(storage.data.get('ep:did')).toBeTruthy();
    tracker.consent({ event: false, device: false });
    expect(storage.data.has('ep:did')).toBe(false);
    net.state.status = 204;
    net.posts.length = 0;
    await tracker.flush();
    expect(net.sent().map((e) => e.e)).toEqual(['p']);
  });
});

describe('device id (§9: 30 days)', () => {
  const DAY = 86_400_000;
  const uidOf = async (tracker: ReturnType<typeof setup>) => {
    tracker.tracker.start();
    tracker.tracker.track('a');
    await tracker.tracker.flush();
    tracker.tracker.stop();
    return tracker.net.posts.at(-1)?.body.data.e.uid;
  };
  const visits = (blocked = false) => {
    const time = manualTime();
    const storage = memoryStore();
    const jar = fakeCookies(time.clock, blocked);
    const visit = () => setup({ cookies: jar.cookies, cookieDomain: '.school.example' }, storage, time);
    return { time, storage, jar, visit };
  };

  it('a new id goes into a cookie for 30 days on the configured domain, and nothing into storage', async () => {
    const { jar, storage, visit } = visits();
    const uid = await uidOf(visit());
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(jar.jar.get('ep_did')).toMatchObject({
      value: uid,
      maxAge: UID_COOKIE_DAYS * 86_400,
      domain: '.school.example',
    });
    expect(storage.data.has('ep:did')).toBe(false);
  });

  it('comes back within 30 days, with its lifetime renewed at start; after 30 days away, a new id', async () => {
    const { time, jar, visit } = visits();
    const first = await uidOf(visit());
    await time.advance(29 * DAY);
    expect(await uidOf(visit())).toBe(first);
    expect(jar.jar.get('ep_did')?.expires).toBe(time.clock.now() + UID_COOKIE_DAYS * DAY);
    await time.advance(29 * DAY); // 58 days after the first visit, 29 after the last
    expect(await uidOf(visit())).toBe(first);
    await time.advance(UID_COOKIE_DAYS * DAY + 1);
    const later = await uidOf(visit());
    expect(later).toMatch(/^[0-9a-f-]{36}$/);
    expect(later).not.toBe(first);
  });

  it('where cookies do not work, storage keeps the id for 30 days; without storage, memory does', async () => {
    const { time, storage, visit } = visits(true);
    const first = await uidOf(visit());
    expect(storage.data.get('ep:did')).toBe(`${first} ${time.clock.now() + STORAGE_FALLBACK_DAYS * DAY}`);
    await time.advance(STORAGE_FALLBACK_DAYS * DAY - 1);
    expect(await uidOf(visit())).toBe(first);
    await time.advance(STORAGE_FALLBACK_DAYS * DAY + 1);
    expect(await uidOf(visit())).not.toBe(first);

    const bare = setup({ cookies: fakeCookies(time.clock, true).cookies, storage: undefined });
    bare.net.state.status = 0;
    bare.tracker.start();
    bare.tracker.track('a');
    await bare.tracker.flush();
    await bare.tracker.flush();
    const [one, two] = bare.net.posts.map((p) => p.body.data.e.uid);
    expect(one).toMatch(/^[0-9a-f-]{36}$/);
    expect(two).toBe(one);
  });

  it('revoking the device consent clears the cookie and the stored copy; nothing is kept before consent', async () => {
    const time = manualTime();
    const storage = memoryStore();
    const jar = fakeCookies(time.clock);
    const { tracker } = setup({ cookies: jar.cookies, consent: { event: true } }, storage, time);
    tracker.start();
    expect(jar.jar.size).toBe(0);
    tracker.consent({ device: true });
    await tracker.flush();
    tracker.track('a');
    await tracker.flush();
    expect(jar.jar.has('ep_did')).toBe(true);
    storage.store.set('ep:did', `stale ${time.clock.now() + DAY}`);
    tracker.consent({ device: false });
    expect(jar.jar.has('ep_did')).toBe(false);
    expect(storage.data.has('ep:did')).toBe(false);
  });
});

describe('timed events', () => {
  it('counts only the time the tab was visible and not paused', async () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('document', doc);
    const { tracker, net, time } = setup();
    tracker.start();
    tracker.startTimer('video');
    await time.advance(1000);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await time.advance(60_000);
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    await time.advance(2000);
    tracker.pauseTimer('video');
    await time.advance(5000);
    tracker.resumeTimer('video');
    await time.advance(500);
    tracker.endTimer('video', { id: 3 });
    await tracker.flush();
    expect(net.sent().find((e) => e.e === 'video')).toMatchObject({ dur: 3500, d: { id: 3 } });
  });

  it('a paused timer stays paused when the tab turns visible', async () => {
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('document', doc);
    const { tracker, net, time } = setup();
    tracker.start();
    tracker.startTimer('read');
    await time.advance(100);
    tracker.pauseTimer('read');
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    await time.advance(1000);
    tracker.endTimer('read');
    await tracker.flush();
    expect(net.sent().find((e) => e.e === 'read')?.dur).toBe(100);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryAfterSeconds } from './ports.ts';
import { memoryStore } from './testing/fakes.ts';
import { setup } from './testing/tracker-setup.ts';

afterEach(() => {
  vi.unstubAllGlobals();
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

  it("flush() while the timer's send is on its way waits for it, then sends what came after", async () => {
    const { tracker, net, time } = setup();
    tracker.start();
    const post = net.transport.post;
    const held: (() => void)[] = [];
    net.transport.post = (url, body) => new Promise((resolve) => held.push(() => resolve(post(url, body))));
    tracker.track('first');
    await time.advance(1000); // the timer sends 'first'; its answer is held back
    expect(held).toHaveLength(1);
    tracker.track('second');
    let flushed = false;
    const flushing = tracker.flush().then(() => {
      flushed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false);
    expect(held).toHaveLength(1);
    net.transport.post = post;
    held[0]?.();
    await flushing;
    expect(net.posts.map((p) => p.body.data.b.map((e) => e.e))).toEqual([['first'], ['second']]);
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

import { TRACKER } from '@edupass/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setup } from './testing/tracker-setup.ts';

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

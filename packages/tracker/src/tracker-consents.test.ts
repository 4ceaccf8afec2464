import { STORAGE_FALLBACK_DAYS, UID_COOKIE_DAYS } from '@edupass/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeCookies, manualTime, memoryStore } from './testing/fakes.ts';
import { setup } from './testing/tracker-setup.ts';

afterEach(() => {
  vi.unstubAllGlobals();
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

/** Stand-ins for the tracker's ports in unit tests: memory storage, a scripted transport, manual time. */
import type { ReportPayload } from '@edupass/protocol';
import type { Clock, CookieJar, KeyValueStore, Logger, Timers, Transport } from '../ports.ts';

export const memoryStore = () => {
  const data = new Map<string, string>();
  let writes = 0;
  const store: KeyValueStore = {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => {
      writes++;
      data.set(key, value);
    },
    remove: (key) => {
      if (data.delete(key)) writes++;
    },
    keys: () => [...data.keys()],
  };
  return { store, data, writes: () => writes };
};

/** A cookie jar that expires cookies by `clock`, as a browser does; `blocked` ignores every write. */
export const fakeCookies = (clock: Clock, blocked = false) => {
  const jar = new Map<string, { value: string; maxAge: number; domain?: string; expires: number }>();
  const cookies: CookieJar = {
    get(name) {
      const cookie = jar.get(name);
      return cookie && cookie.expires > clock.now() ? cookie.value : undefined;
    },
    set(name, value, maxAge, domain) {
      if (blocked) return;
      if (maxAge > 0) jar.set(name, { value, maxAge, domain, expires: clock.now() + maxAge * 1000 });
      else jar.delete(name);
    },
  };
  return { cookies, jar };
};

export const fakeTransport = () => {
  const posts: { url: string; body: ReportPayload; raw: string }[] = [];
  const beacons: { url: string; body: ReportPayload; raw: string }[] = [];
  const state = {
    status: 204,
    /** `Retry-After` seconds to answer with, if any. */
    retryAfter: undefined as number | undefined,
    beaconOk: true,
    serverNow: undefined as number | undefined,
  };
  const transport: Transport = {
    post: async (url, raw) => {
      posts.push({ url, raw, body: JSON.parse(raw) as ReportPayload });
      return state.retryAfter === undefined ? state.status : { status: state.status, retryAfter: state.retryAfter };
    },
    beacon: (url, raw) => {
      if (!state.beaconOk) return false;
      beacons.push({ url, raw, body: JSON.parse(raw) as ReportPayload });
      return true;
    },
    getJson: async () => {
      if (state.serverNow === undefined) throw new Error('offline');
      return { now: state.serverNow };
    },
  };
  const sent = () => [...posts, ...beacons].flatMap((p) => p.body.data.b);
  return { transport, posts, beacons, state, sent };
};

export const manualTime = (start = Date.UTC(2026, 10, 22)) => {
  let now = start;
  const jobs: { every: number; next: number; fn: () => void }[] = [];
  const clock: Clock = { now: () => now };
  const timers: Timers = {
    every(ms, fn) {
      const job = { every: ms, next: now + ms, fn };
      jobs.push(job);
      return () => jobs.splice(jobs.indexOf(job), 1);
    },
  };
  /** Moves time on, running each timer that falls due and letting its promises settle. */
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = jobs.filter((j) => j.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.every;
      due.fn();
      await new Promise((resolve) => setImmediate(resolve));
    }
    now = end;
  };
  return { clock, timers, advance, jobs };
};

export const recordingLogger = () => {
  const warnings: string[] = [];
  const logger: Logger = { warn: (message) => warnings.push(message) };
  return { logger, warnings };
};

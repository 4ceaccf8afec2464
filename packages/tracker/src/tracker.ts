/**
 * The usage tracker (§4 "Usage reporting", §9 limits): events queue, a repeating timer sends them in
 * batches, the page end flushes them with a beacon, and whatever is still unsent waits in storage.
 */
import {
  COOKIE_CLEAR_MAX_AGE,
  DAY_SECONDS,
  REPORT_PATHS,
  type ReportEnv,
  type ReportEvent,
  type ReportPayload,
  STORAGE_FALLBACK_DAYS,
  TRACKER,
  UID_COOKIE_DAYS,
  USAGE_LIMITS,
} from '@edupass/protocol';
import { readDevice } from './device.ts';
import { eventId } from './event-id.ts';
import { getDocument, getWindow, isHidden, isOnline, listen } from './globals.ts';
import type { Consents, EventKind, TrackerOptions } from './options.ts';
import { browserCookies, browserStore, consoleLogger, fetchTransport, intervalTimers, systemClock } from './ports.ts';
import { createQueueStore, type Entry } from './queue-store.ts';
import { createTimedEvents } from './timed.ts';

/** Longest wait a server's `Retry-After` can impose: past it, the queue would outlive most pages. */
const RETRY_AFTER_MAX_MS = 10 * 60_000;

export interface Tracker {
  /** Starts the send timer, the page-end flush and the server-time fetch, and adopts events earlier pages left unsent. */
  start(): void;
  /** Stops timers and listeners; unsent events stay in storage for the next page. */
  stop(): void;
  /** Queues an event; dropped (with a warning) without a key, over the size limit or past the queue cap. */
  track(key: string, data?: Record<string, unknown>, kind?: EventKind): void;
  startTimer(key: string): void;
  pauseTimer(key: string): void;
  resumeTimer(key: string): void;
  /** Tracks `key` with `dur`, the milliseconds the timer ran while the tab was visible and not paused. */
  endTimer(key: string, data?: Record<string, unknown>, kind?: EventKind): void;
  /** Grants or revokes consents; revoking drops the queued events of that kind from memory and storage. */
  consent(consents: Consents): void;
  /** The signed-in user's id, sent with the user consent. */
  setUser(id: string | undefined): void;
  /** Sends everything queued now, ignoring any retry back-off (after the send under way, if any). */
  flush(): Promise<void>;
}

/** The device id's cookie, and its storage key where cookies do not work (stored as `id expiresAt`). */
const DEVICE_COOKIE = 'ep_did';
const DEVICE_KEY = 'ep:did';
/** Sizes are counted as 3× the JSON length (§9). */
const sizeOf = (value: unknown): number => TRACKER.sizeFactor * JSON.stringify(value).length;

export const createTracker = (options: TrackerOptions): Tracker => {
  const { productCode, url } = options;
  const clock = options.clock ?? systemClock;
  const transport = options.transport ?? fetchTransport;
  const logger = options.logger ?? consoleLogger;
  const store = options.storage ?? browserStore();
  const cookies = options.cookies ?? browserCookies();
  const problem = productCode ? (url ? '' : 'Please set url') : 'Please set product code';
  const base = url?.replace(/\/+$/, '');
  const reportUrl = base + REPORT_PATHS.report(productCode ?? '');
  const pageId = eventId(clock.now());
  const saved = createQueueStore(store, productCode, pageId, options.storageLimit ?? 200_000);
  const timed = createTimedEvents(clock, isHidden);
  const granted: Consents = { ...options.consent };
  const stoppers: (() => void)[] = [];

  let queue: Entry[] = [];
  let offset = 0;
  let started = false;
  let adopted = false;
  let dirty = false;
  /** The send under way (one at a time), which answers whether its batch left the queue. */
  let sending: Promise<boolean> | undefined;
  let failures = 0;
  let retryAt = 0;
  let userId: string | undefined;
  let deviceId: string | undefined;

  const now = () => clock.now() + offset;

  /** Reads the device id (cookie, else unexpired stored copy, else a new one) and renews its 30 days (§9). */
  const deviceUuid = (): string => {
    if (!deviceId) {
      const at = clock.now();
      const [kept, until] = store?.get(DEVICE_KEY)?.split(' ') ?? [];
      const id = cookies?.get(DEVICE_COOKIE) || (Number(until) > at && kept) || eventId(now());
      deviceId = id;
      cookies?.set(DEVICE_COOKIE, id, UID_COOKIE_DAYS * DAY_SECONDS, options.cookieDomain);
      try {
        // A cookie that reads back is the one copy; otherwise storage keeps the id with its expiry.
        if (cookies?.get(DEVICE_COOKIE) === id) store?.remove(DEVICE_KEY);
        else store?.set(DEVICE_KEY, `${id} ${at + STORAGE_FALLBACK_DAYS * DAY_SECONDS * 1000}`);
      } catch {}
    }
    return deviceId;
  };

  const env = (): ReportEnv => {
    const info: ReportEnv = granted.device ? { ...readDevice(), process_id: pageId, uid: deviceUuid() } : {};
    if (granted.user && userId) info.user_id = userId;
    return info;
  };

  const payload = (info: ReportEnv, events: ReportEvent[]): ReportPayload => ({
    type: 0,
    alg: '',
    data: { m: { d: 1, p: productCode, tst: options.isDev ? 1 : 0, h: options.heatmap ? 1 : 0 }, e: info, b: events },
  });

  /** The oldest events that fit one request (§9: 30000, counted 3× the JSON length), as its body. */
  const nextBatch = (): [Entry[], string] => {
    const info = env();
    let size = sizeOf(payload(info, []));
    let count = 0;
    for (const entry of queue) {
      // +3: the comma between events, counted like everything else.
      if (count > 0 && size + entry.s + 3 > TRACKER.requestSizeLimit) break;
      size += entry.s + 3;
      count++;
    }
    const batch = queue.slice(0, count);
    return [
      batch,
      JSON.stringify(
        payload(
          info,
          batch.map((entry) => entry.v),
        ),
      ),
    ];
  };

  const drop = (batch: Entry[]) => {
    const gone = new Set(batch);
    queue = queue.filter((entry) => !gone.has(entry));
    dirty = true;
  };

  const save = () => {
    if (dirty) saved.save(queue);
    dirty = false;
  };

  const send = (force = false): Promise<boolean> => {
    if (problem || sending || queue.length === 0 || (!force && clock.now() < retryAt) || !isOnline()) {
      return Promise.resolve(false);
    }
    sending = sendBatch().finally(() => {
      sending = undefined;
    });
    return sending;
  };

  const sendBatch = async (): Promise<boolean> => {
    const [batch, body] = nextBatch();
    let status = 0;
    let retryAfter: number | undefined;
    try {
      const answer = await transport.post(reportUrl, body);
      ({ status, retryAfter } = typeof answer === 'number' ? { status: answer, retryAfter: undefined } : answer);
    } catch {
      // A transport that throws (or a page without fetch) counts as no answer: retried later.
    }
    // Other 4xx answers mean the batch itself is refused; sending it again would never succeed.
    if (status >= 200 && status < 500 && status !== 408 && status !== 429) {
      if (status >= 300) logger.warn(`Events refused by the server (HTTP ${status})`);
      drop(batch);
      failures = 0;
      retryAt = 0;
      return true;
    }
    failures++;
    // The batch is kept. An overloaded server says when to come back (503/429 with Retry-After): not
    // before then, spread over a fifth more so its callers do not all return at once. Otherwise
    // exponential back-off with jitter, so a recovering server is not hit by every page at once.
    retryAt =
      retryAfter !== undefined && (status === 503 || status === 429)
        ? clock.now() + Math.min(RETRY_AFTER_MAX_MS, retryAfter * 1000) * (1 + Math.random() / 5)
        : clock.now() + Math.min(60_000, 1000 * 2 ** failures) * (0.5 + Math.random() / 2);
    return false;
  };

  /** Page end: hand the queue to beacons, which outlive the page; keep what they refuse for the next page. */
  const pageEnd = () => {
    // Browsers cap what beacons and keepalive requests may carry in flight at 64 KB.
    let budget = 60_000;
    while (isOnline() && queue.length > 0) {
      const [batch, body] = nextBatch();
      budget -= body.length;
      if (budget < 0 || !transport.beacon(reportUrl, body)) break;
      drop(batch);
    }
    save();
  };

  const adopt = () => {
    if (adopted || !started || !TRACKER.consents.some((kind) => granted[kind])) return;
    adopted = true;
    const known = new Set(queue.map((entry) => entry.v.i));
    const left = saved.adopt().filter((entry) => granted[entry.k] && !known.has(entry.v.i));
    queue = [...left, ...queue].slice(0, TRACKER.queueMax);
    dirty = true;
  };

  const syncTime = () => {
    const sentAt = clock.now();
    transport.getJson(base + REPORT_PATHS.time).then(
      (body) => {
        const server = (body as { now?: unknown } | null)?.now;
        // The answer is taken to be made halfway through the round trip.
        if (typeof server === 'number' && Number.isFinite(server)) offset = server - (sentAt + clock.now()) / 2;
      },
      () => {},
    );
  };

  const track = (key: string, data: Record<string, unknown> = {}, kind: EventKind = 'event', dur?: number) => {
    if (problem || !granted[kind]) return;
    if (!key || key.length > USAGE_LIMITS.keyMax) {
      logger.warn(`Events need a key of 1 to ${USAGE_LIMITS.keyMax} characters`);
      return;
    }
    const at = now();
    const event: ReportEvent = { e: key, i: eventId(at), t: Math.floor(at / 1000), d: data };
    if (dur !== undefined) event.dur = dur;
    let size: number;
    try {
      size = sizeOf(event);
    } catch {
      logger.warn(`Event "${key}" has data that cannot be sent as JSON; dropped`);
      return;
    }
    if (size > TRACKER.eventSizeLimit) {
      logger.warn(`Event "${key}" is over the size limit of ${TRACKER.eventSizeLimit}; dropped`);
    } else if (queue.length >= TRACKER.queueMax) {
      logger.warn(`The queue holds ${TRACKER.queueMax} unsent events; "${key}" dropped`);
    } else {
      queue.push({ k: kind, s: size, v: event });
      dirty = true;
    }
  };

  return {
    start() {
      if (started) return;
      if (problem) {
        logger.warn(problem);
        return;
      }
      started = true;
      if (granted.device) deviceUuid();
      adopt();
      syncTime();
      const win = getWindow();
      stoppers.push(
        (options.timers ?? intervalTimers).every(TRACKER.sendIntervalMs, () => {
          save();
          void send();
        }),
        listen(win, 'pagehide', pageEnd),
        listen(getDocument(), 'visibilitychange', () => {
          timed.visibility(isHidden());
          if (isHidden()) pageEnd();
        }),
        listen(win, 'online', () => {
          retryAt = 0;
          void send();
        }),
      );
    },
    stop() {
      for (const stopper of stoppers.splice(0)) stopper();
      save();
      started = false;
    },
    track: (key, data, kind) => track(key, data, kind),
    startTimer: (key) => timed.start(key),
    pauseTimer: (key) => timed.pause(key),
    resumeTimer: (key) => timed.resume(key),
    endTimer(key, data, kind) {
      const dur = timed.end(key);
      if (dur !== undefined) track(key, data, kind, dur);
    },
    consent(consents) {
      Object.assign(granted, consents);
      queue = queue.filter((entry) => granted[entry.k]);
      if (consents.device === false) {
        deviceId = undefined;
        cookies?.set(DEVICE_COOKIE, '', COOKIE_CLEAR_MAX_AGE, options.cookieDomain);
        try {
          store?.remove(DEVICE_KEY);
        } catch {}
      }
      dirty = true;
      save();
      adopt();
    },
    setUser(id) {
      userId = id;
    },
    async flush() {
      for (;;) {
        // A send already under way (the timer's) is waited for: its batch leaves the queue first.
        while (sending) await sending;
        if (!(await send(true))) return;
      }
    },
  };
};

/**
 * What the tracker needs from its surroundings, behind small interfaces with browser defaults, so it
 * runs the same in a page, in Node and in tests.
 */
import { getDocument, getLocalStorage, getNavigator } from './globals.ts';

/** A string key-value store; the default is `localStorage`. Every method may fail silently. */
export interface KeyValueStore {
  get(key: string): string | null;
  /** May throw (quota); the tracker catches it. */
  set(key: string, value: string): void;
  remove(key: string): void;
  keys(): string[];
}

/** First-party cookies; the default is `document.cookie`. Writes the browser refuses are ignored silently. */
export interface CookieJar {
  get(name: string): string | undefined;
  /** Writes `name` for the whole site (`path=/`) for `maxAge` seconds; a negative `maxAge` deletes it. */
  set(name: string, value: string, maxAge: number, domain?: string): void;
}

/** A POST's answer: its HTTP status, and the server's `Retry-After` in seconds when it sent one. */
export interface PostAnswer {
  status: number;
  retryAfter?: number;
}

export interface Transport {
  /** POSTs `body` and answers the HTTP status (0 when no answer came), or the status with `Retry-After`. */
  post(url: string, body: string): Promise<number | PostAnswer>;
  /** Queues `body` to outlive the page (sendBeacon, else keepalive fetch); `false` when refused. */
  beacon(url: string, body: string): boolean;
  /** GETs JSON; rejects on any failure. */
  getJson(url: string): Promise<unknown>;
}

export interface Timers {
  /** Calls `fn` every `ms` and answers the canceller. */
  every(ms: number, fn: () => void): () => void;
}

export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

export interface Logger {
  warn(message: string): void;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export const retryAfterSeconds = (value: string | null, now = Date.now()): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
};

export const browserStore = (): KeyValueStore | undefined => {
  const ls = getLocalStorage();
  return (
    ls && {
      get: (key) => ls.getItem(key),
      set: (key, value) => ls.setItem(key, value),
      remove: (key) => ls.removeItem(key),
      keys: () => Object.keys(ls),
    }
  );
};

export const browserCookies = (): CookieJar | undefined => {
  const doc = getDocument();
  return (
    doc && {
      get(name) {
        try {
          // Reading throws in sandboxed frames; blocked cookies and file:// pages just read nothing back.
          return doc.cookie.match(`(?:^|; )${name}=([^;]*)`)?.[1];
        } catch {}
      },
      set(name, value, maxAge, domain) {
        try {
          doc.cookie = `${name}=${value};max-age=${maxAge};path=/${domain ? `;domain=${domain}` : ''};samesite=lax${
            doc.location?.protocol === 'https:' ? ';secure' : ''
          }`;
        } catch {}
      },
    }
  );
};

// A string body goes as text/plain: a "simple" CORS request, so no preflight on each batch.
export const fetchTransport: Transport = {
  async post(url, body) {
    try {
      const response = await fetch(url, { method: 'POST', body, credentials: 'omit' });
      return { status: response.status, retryAfter: retryAfterSeconds(response.headers.get('retry-after')) };
    } catch {
      return 0;
    }
  },
  beacon(url, body) {
    try {
      if (getNavigator()?.sendBeacon?.(url, body)) return true;
      void fetch(url, { method: 'POST', body, credentials: 'omit', keepalive: true }).catch(() => {});
      return true;
    } catch {
      return false;
    }
  },
  getJson: async (url) => (await fetch(url, { credentials: 'omit' })).json(),
};

export const intervalTimers: Timers = {
  every(ms, fn) {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  },
};

export const systemClock: Clock = { now: () => Date.now() };

export const consoleLogger: Logger = { warn: (message) => console.warn(`[edupass tracker] ${message}`) };

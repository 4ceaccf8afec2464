/** Loads a vendor script once per page, retrying a failed load (flaky CDNs are the usual cause of a broken captcha). */
import { fatal } from './errors.ts';
import type { Timers } from './globals.ts';

export interface ScriptLoadOptions {
  /** Total tries. @default 3 */
  attempts?: number;
  /** A try that neither loads nor fails within this is abandoned. @default 10000 */
  timeoutMs?: number;
  /** Wait before try n+1 is n times this. @default 300 */
  backoffMs?: number;
  timers: Timers;
}

const loaded = new WeakMap<Document, Map<string, Promise<void>>>();

const tryOnce = (document: Document, url: string, timeoutMs: number, timers: Timers): Promise<void> =>
  new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.setAttribute('data-edupass-captcha', 'vendor-script');
    const timer = timers.setTimeout(() => done(new Error(`timed out loading ${url}`)), timeoutMs);
    const done = (error?: Error) => {
      timers.clearTimeout(timer);
      script.onload = null;
      script.onerror = null;
      if (error) {
        // A failed tag is removed so the next try (or a later page action) starts clean.
        script.remove();
        reject(error);
      } else {
        resolve();
      }
    };
    script.onload = () => done();
    script.onerror = () => done(new Error(`failed to load ${url}`));
    (document.head ?? document.documentElement).appendChild(script);
  });

export const loadScript = (document: Document, url: string, options: ScriptLoadOptions): Promise<void> => {
  let cache = loaded.get(document);
  if (!cache) {
    cache = new Map();
    loaded.set(document, cache);
  }
  const known = cache.get(url);
  if (known) return known;
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const backoffMs = options.backoffMs ?? 300;
  const run = async () => {
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await tryOnce(document, url, timeoutMs, options.timers);
        return;
      } catch (error) {
        last = error;
        if (attempt < attempts) {
          await new Promise<void>((resolve) => options.timers.setTimeout(resolve, backoffMs * attempt));
        }
      }
    }
    throw fatal({ cause: last });
  };
  const promise = run();
  cache.set(url, promise);
  // Only successes are remembered: a page may try again after the network comes back.
  promise.catch(() => cache.delete(url));
  return promise;
};

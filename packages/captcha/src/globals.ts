/**
 * Every browser global this package touches is reached through here, so the package imports and
 * runs in Node and in tests where `window` and `document` do not exist.
 */

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /** Milliseconds; only differences are used. */
  now(): number;
}

export const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
  now: () => (typeof performance === 'undefined' ? Date.now() : performance.now()),
};

/** The page's globals, or undefined outside a browser. */
export interface Page {
  window: Window;
  document: Document;
}

export const currentPage = (): Page | undefined => {
  const g = globalThis as { window?: Window; document?: Document };
  return g.window !== undefined && g.document !== undefined ? { window: g.window, document: g.document } : undefined;
};

/** A named property of the page's window (vendor scripts publish their entry points there). */
export const windowProperty = (page: Page, name: string): unknown =>
  (page.window as unknown as Record<string, unknown>)[name];

export const setWindowProperty = (page: Page, name: string, value: unknown): void => {
  (page.window as unknown as Record<string, unknown>)[name] = value;
};

/** Runs `fn` when the browser is idle, and at the latest after `timeoutMs` (§4: idle callback or 500 ms). */
export const whenIdle = (fn: () => void, timeoutMs: number, timers: Timers, page = currentPage()): void => {
  const request = page ? windowProperty(page, 'requestIdleCallback') : undefined;
  if (typeof request === 'function') {
    (request as (cb: () => void, options: { timeout: number }) => number).call(page?.window, fn, {
      timeout: timeoutMs,
    });
  } else {
    timers.setTimeout(fn, timeoutMs);
  }
};

/**
 * API outcomes (§7, §9): every fetch and XHR call is timed and its status (or, when no response came,
 * 601 network, 602 timeout, 603 abort, 604 other fetch error) handed to `report`. Returns the undo.
 */
import { MONITOR } from '@edupass/protocol';
import { getGlobal } from './globals.ts';

export type ApiOutcome = (method: string, url: string, code: number, ms: number) => void;

const { codes } = MONITOR;

/** The code for a fetch that rejected: Chromium and Firefox reject a network failure with a TypeError. */
export const fetchFailureCode = (error: unknown): number => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError'
    ? codes.timeout
    : name === 'AbortError'
      ? codes.abort
      : name === 'TypeError'
        ? codes.network
        : codes.fetch;
};

export const watchApi = (report: ApiOutcome, now: () => number): (() => void) => {
  const global = getGlobal();
  const originalFetch = global.fetch;
  const XHR = global.XMLHttpRequest;
  const { open, send } = XHR?.prototype ?? {};
  const calls = new WeakMap<XMLHttpRequest, [string, string]>();

  if (originalFetch) {
    global.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const start = now();
      const request = input instanceof Request ? input : undefined;
      const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
      const url = request?.url ?? String(input);
      return originalFetch.call(this, input, init).then(
        (response) => {
          report(method, url, response.status, now() - start);
          return response;
        },
        (error: unknown) => {
          report(method, url, fetchFailureCode(error), now() - start);
          throw error;
        },
      );
    } as typeof fetch;
  }

  if (XHR && open && send) {
    // Rest arguments: open's optional async/user/password must pass through exactly as given.
    XHR.prototype.open = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['open']>) {
      calls.set(this, [args[0].toUpperCase(), String(args[1])]);
      return open.apply(this, args);
    } as typeof open;
    XHR.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      const call = calls.get(this);
      if (call) {
        const start = now();
        let failure = 0;
        this.addEventListener('error', () => (failure = codes.network));
        this.addEventListener('timeout', () => (failure = codes.timeout));
        this.addEventListener('abort', () => (failure = codes.abort));
        this.addEventListener('loadend', () => report(call[0], call[1], failure || this.status, now() - start));
      }
      return send.call(this, body);
    };
  }

  return () => {
    if (originalFetch) global.fetch = originalFetch;
    if (XHR && open && send) Object.assign(XHR.prototype, { open, send });
  };
};

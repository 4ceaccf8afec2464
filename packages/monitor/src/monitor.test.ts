import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageBeacon } from './beacon.ts';
import { createMonitor } from './monitor.ts';
import type { MonitorOptions } from './options.ts';

const setup = (extra: Partial<MonitorOptions> = {}) => {
  const beacons: Record<string, string>[] = [];
  const urls: string[] = [];
  const warnings: string[] = [];
  const monitor = createMonitor({
    productCode: 'edupass',
    url: 'https://collector.test',
    vitals: false,
    send: (url, fields) => {
      urls.push(url);
      beacons.push(fields);
    },
    now: () => 1_000,
    random: () => 0.5,
    logger: { warn: (m) => warnings.push(m) },
    ...extra,
  });
  return { monitor, beacons, urls, warnings };
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('configuration', () => {
  it('warns and stays off without a product code or url', async () => {
    const before = globalThis.fetch;
    const a = setup({ productCode: '' });
    a.monitor.start();
    const b = setup({ url: '' });
    b.monitor.start();
    expect(a.warnings).toEqual(['Please set product code']);
    expect(b.warnings).toEqual(['Please set url']);
    expect(globalThis.fetch).toBe(before);
  });
});

describe('API outcomes from fetch', () => {
  const respond = (status: number) => vi.stubGlobal('fetch', async () => new Response(null, { status }));

  it('reports a failure always and flags 400–499 as a business error', async () => {
    respond(404);
    const { monitor, beacons, urls } = setup();
    monitor.start();
    await fetch('https://api.test/v1/lessons?token=secret', { method: 'post' });
    expect(urls).toEqual(['https://collector.test/monitor/beacon']);
    expect(beacons).toEqual([
      { p: 'edupass', pg: '/', t: '1000', k: 'api', u: 'api.test/v1/lessons', m: 'POST', c: '404', v: '0', b: '1' },
    ]);
    monitor.stop();
  });

  it('a 5xx is a failure but not a business error', async () => {
    respond(503);
    const { monitor, beacons } = setup();
    monitor.start();
    await fetch('https://api.test/x');
    expect(beacons[0]).toMatchObject({ c: '503', b: '0' });
    monitor.stop();
  });

  it('samples successes at 1 in 10', async () => {
    respond(200);
    let roll = 0.5;
    const { monitor, beacons } = setup({ random: () => roll });
    monitor.start();
    await fetch('https://api.test/a');
    roll = 0.09;
    await fetch('https://api.test/b');
    expect(beacons.map((b) => b.u)).toEqual(['api.test/b']);
    monitor.stop();
  });

  it('maps a network failure to 601 (real fetch to a closed port)', async () => {
    const { monitor, beacons } = setup();
    monitor.start();
    await expect(fetch('http://127.0.0.1:9/')).rejects.toThrow();
    expect(beacons[0]).toMatchObject({ c: '601', b: '0' });
    monitor.stop();
  });

  it('maps a timeout to 602, an abort to 603 and any other rejection to 604', async () => {
    vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
      if (init?.signal) {
        return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
      }
      return Promise.reject(new Error('weird'));
    });
    const { monitor, beacons } = setup();
    monitor.start();
    await expect(fetch('https://api.test/slow', { signal: AbortSignal.timeout(5) })).rejects.toThrow();
    const controller = new AbortController();
    const aborted = fetch('https://api.test/cancel', { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toThrow();
    await expect(fetch('https://api.test/odd')).rejects.toThrow('weird');
    expect(beacons.map((b) => b.c)).toEqual(['602', '603', '604']);
    monitor.stop();
  });

  it("a failing beacon never breaks the site's own fetch", async () => {
    respond(500);
    const { monitor } = setup({
      send: () => {
        throw new Error('beacon blocked');
      },
    });
    monitor.start();
    await expect(fetch('https://api.test/x')).resolves.toMatchObject({ status: 500 });
    monitor.stop();
  });

  it('ignores the collector itself and restores fetch on stop', async () => {
    respond(500);
    const original = globalThis.fetch;
    const { monitor, beacons } = setup();
    monitor.start();
    expect(globalThis.fetch).not.toBe(original);
    await fetch('https://collector.test/report/edupass');
    await fetch('https://collector.test/monitor/beacon');
    expect(beacons).toEqual([]);
    monitor.stop();
    expect(globalThis.fetch).toBe(original);
  });
});

describe('API outcomes from XHR', () => {
  class FakeXhr extends EventTarget {
    status = 0;
    outcome: 'load' | 'error' | 'timeout' | 'abort' = 'load';
    open(_method: string, _url: string) {}
    send() {
      setTimeout(() => {
        if (this.outcome === 'load') this.status = 409;
        else this.dispatchEvent(new Event(this.outcome));
        this.dispatchEvent(new Event('loadend'));
      }, 0);
    }
  }

  it('reports the status, or 601/602/603 when no response came', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { monitor, beacons } = setup();
    monitor.start();
    for (const outcome of ['load', 'error', 'timeout', 'abort'] as const) {
      const xhr = new XMLHttpRequest() as unknown as FakeXhr;
      xhr.outcome = outcome;
      xhr.open('get', '/v1/x');
      (xhr as unknown as XMLHttpRequest).send();
      await flush();
    }
    expect(beacons.map((b) => [b.m, b.u, b.c, b.b])).toEqual([
      ['GET', '/v1/x', '409', '1'],
      ['GET', '/v1/x', '601', '0'],
      ['GET', '/v1/x', '602', '0'],
      ['GET', '/v1/x', '603', '0'],
    ]);
    monitor.stop();
    expect(FakeXhr.prototype.open.name).toBe('open');
  });
});

describe('JS errors', () => {
  it('reports thrown errors and unhandled rejections, and caps them per page', () => {
    const win = new EventTarget();
    vi.stubGlobal('window', win);
    const { monitor, beacons } = setup({ maxErrors: 2 });
    monitor.start();
    const error = Object.assign(new Event('error'), { message: 'boom', error: new Error('boom') });
    win.dispatchEvent(error);
    win.dispatchEvent(new Event('error')); // a failed <img> load: no message, not a JS error
    win.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'nope' }));
    win.dispatchEvent(error);
    expect(beacons.map((b) => [b.k, b.n])).toEqual([
      ['error', 'boom'],
      ['error', 'Unhandled rejection: nope'],
    ]);
    expect(beacons[0]?.s).toContain('monitor.test.ts');
    monitor.stop();
  });
});

describe('imageBeacon', () => {
  it('sends a GET image request, and a POST beacon when the URL would be too long', () => {
    const images: string[] = [];
    const posts: [string, string][] = [];
    vi.stubGlobal(
      'Image',
      class {
        set src(value: string) {
          images.push(value);
        }
      },
    );
    vi.stubGlobal('navigator', { sendBeacon: (url: string, body: string) => posts.push([url, body]) > 0 });
    imageBeacon('https://c.test/monitor/beacon', { k: 'error', n: 'short' });
    imageBeacon('https://c.test/monitor/beacon', { k: 'error', n: 'x'.repeat(3000) });
    expect(images).toEqual(['https://c.test/monitor/beacon?k=error&n=short']);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.[1]).toMatch(/^k=error&n=x{3000}$/);
  });
});

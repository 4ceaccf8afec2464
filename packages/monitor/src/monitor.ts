/**
 * The monitoring beacon (§7, §9): web-vitals, API outcomes (successes sampled 1 in 10, failures
 * always, HTTP 400–499 flagged as business errors) and JS errors, each sent as one beacon.
 */
import { MONITOR, REPORT_PATHS } from '@edupass/protocol';
import { watchApi } from './api.ts';
import { imageBeacon } from './beacon.ts';
import { pageUrl } from './globals.ts';
import { watchErrors } from './js-errors.ts';
import type { BeaconFields, MonitorOptions } from './options.ts';
import { watchVitals } from './vitals.ts';

export interface Monitor {
  /** Installs the fetch/XHR wrappers and the error listeners and starts web-vitals. */
  start(): void;
  /** Restores fetch and XHR and removes the listeners; web-vitals cannot be unhooked, so it just stops sending. */
  stop(): void;
}

const [businessLow, businessHigh] = MONITOR.businessErrorStatus;

export const createMonitor = (options: MonitorOptions): Monitor => {
  const { productCode, url } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const send = options.send ?? imageBeacon;
  const logger = options.logger ?? { warn: (message: string) => console.warn(`[edupass monitor] ${message}`) };
  const base = url?.replace(/\/+$/, '');
  const beaconUrl = base + REPORT_PATHS.beacon;
  const stoppers: (() => void)[] = [];
  let active = false;
  let vitalsOn = false;
  let errorCount = 0;

  const report = (fields: BeaconFields) => {
    if (!active) return;
    // Reports run inside the site's own fetch callbacks and error handlers: they must never throw there.
    try {
      const all: Record<string, string> = { p: productCode, pg: pageUrl().pathname, t: String(now()) };
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) all[key] = String(value);
      send(beaconUrl, all);
    } catch {}
  };

  const onApi = (method: string, requestUrl: string, code: number, ms: number) => {
    const page = pageUrl();
    let target: URL;
    try {
      target = new URL(requestUrl, page);
    } catch {
      return;
    }
    // The collector's own endpoints are not the site's API.
    if (target.href.startsWith(`${base}/report`) || target.href.startsWith(beaconUrl)) return;
    const failed = code < 200 || code >= 400;
    if (!failed && random() >= (options.successSampleRate ?? MONITOR.successSampleRate)) return;
    // Only the path: query strings carry tokens and personal data.
    const path = target.origin === page.origin ? target.pathname : target.host + target.pathname;
    const business = code >= businessLow && code <= businessHigh ? 1 : 0;
    report({ k: 'api', u: path.slice(0, 512), m: method, c: code, v: Math.round(ms), b: business });
  };

  return {
    start() {
      if (active) return;
      if (!productCode || !url) {
        logger.warn(productCode ? 'Please set url' : 'Please set product code');
        return;
      }
      active = true;
      if (options.api !== false) stoppers.push(watchApi(onApi, now));
      if (options.errors !== false) {
        stoppers.push(
          watchErrors((message, stack) => {
            if (++errorCount <= (options.maxErrors ?? 50))
              report({ k: 'error', n: message.slice(0, 512), s: stack.slice(0, 2048) });
          }),
        );
      }
      if (options.vitals !== false && !vitalsOn) {
        vitalsOn = true;
        watchVitals((name, value) => report({ k: 'perf', n: name, v: value }));
      }
    },
    stop() {
      active = false;
      for (const stopper of stoppers.splice(0)) stopper();
    },
  };
};

/**
 * Usage events and monitoring, started only once the visitor agrees. The SDKs are their own chunk,
 * loaded after consent; calls made before then are dropped, never queued behind the visitor's back.
 */
import type { Monitor } from '@edupass/monitor';
import type { Tracker } from '@edupass/tracker';
import { PRODUCT } from '../session/account.ts';
import { getConsent, onConsent } from './consent.ts';

let tracker: Tracker | undefined;
let monitor: Monitor | undefined;
let loading: Promise<void> | undefined;

const start = (): Promise<void> => {
  loading ??= Promise.all([import('@edupass/tracker'), import('@edupass/monitor')]).then(
    ([{ createTracker }, { createMonitor }]) => {
      // Both switch themselves off with a warning ('Please set url') when the server has no collector.
      const url = window.location.origin;
      tracker = createTracker({
        productCode: PRODUCT.product_code,
        url,
        consent: { event: true, view: true, app: true, device: true, user: true },
        isDev: import.meta.env.DEV,
      });
      monitor = createMonitor({ productCode: PRODUCT.product_code, url });
      tracker.start();
      monitor.start();
      tracker.track('page_view', { path: window.location.pathname }, 'view');
    },
    () => {
      loading = undefined;
    },
  );
  return loading;
};

const stop = () => {
  tracker?.consent({ event: false, view: false, app: false, device: false, user: false });
  tracker?.stop();
  monitor?.stop();
  tracker = undefined;
  monitor = undefined;
  loading = undefined;
};

/** Starts reporting if the visitor agreed (now or later) and stops it if they withdraw. */
export const initTelemetry = (): void => {
  const apply = () => {
    if (getConsent() === 'granted') void start();
    else stop();
  };
  apply();
  onConsent(apply);
};

export const trackEvent = (key: string, data?: Record<string, unknown>): void => tracker?.track(key, data);
export const trackPageView = (path: string): void => tracker?.track('page_view', { path }, 'view');
export const startFlowTimer = (key: string): void => tracker?.startTimer(key);
export const endFlowTimer = (key: string, data?: Record<string, unknown>): void => tracker?.endTimer(key, data);
export const setTrackedUser = (id: string | undefined): void => tracker?.setUser(id);

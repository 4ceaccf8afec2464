/**
 * The device id of the rule request (§4): FingerprintJS 5 (MIT), started when the browser is idle or
 * after 500 ms, with its remote monitoring off. Any failure gives '' — the rule still works without it.
 */
import { FINGERPRINT_TIMEOUT_MS, FINGERPRINT_WAIT } from '@edupass/protocol';
import { currentPage, type Page, type Timers, whenIdle } from './globals.ts';

export interface FingerprintAgent {
  get(): Promise<{ visitorId: string }>;
}

export type LoadFingerprint = () => Promise<FingerprintAgent>;

/** Imported only when needed, so sites that never run a captcha never download it. */
export const loadFingerprintJs: LoadFingerprint = async () => {
  const fingerprint = await import('@fingerprintjs/fingerprintjs');
  return fingerprint.load({ monitoring: false, delayFallback: FINGERPRINT_WAIT });
};

export interface DeviceIdOptions {
  timers: Timers;
  load?: LoadFingerprint;
  page?: Page | undefined;
  /** Give up (and answer '') when the fingerprint takes longer than this. @default 3000 */
  deadlineMs?: number;
}

export const fingerprintDeviceId = (options: DeviceIdOptions): Promise<string> => {
  const { timers } = options;
  const load = options.load ?? loadFingerprintJs;
  return new Promise<string>((resolve) => {
    let settled = false;
    const settle = (id: string) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(deadline);
      resolve(id);
    };
    const deadline = timers.setTimeout(() => settle(''), options.deadlineMs ?? 3000);
    whenIdle(
      () => {
        load()
          .then((agent) => agent.get())
          .then((result) => settle(typeof result.visitorId === 'string' ? result.visitorId : ''))
          .catch(() => settle(''));
      },
      FINGERPRINT_TIMEOUT_MS,
      timers,
      'page' in options ? options.page : currentPage(),
    );
  });
};

/** One id per page: the fingerprint is costly and does not change. */
export const memoizeDeviceId = (get: () => Promise<string>): (() => Promise<string>) => {
  let cached: Promise<string> | undefined;
  return () => {
    cached ??= get().then((id) => {
      if (id === '') cached = undefined;
      return id;
    });
    return cached;
  };
};

import type { MonitorBeacon } from '@edupass/protocol';

/** Delivers one beacon; the default is a GET image request, or a POST beacon past the URL length limit. */
export type BeaconSender = (url: string, fields: Record<string, string>) => void;

export interface MonitorOptions {
  /** The product code the server knows; without it the monitor warns 'Please set product code' and stays off. */
  productCode: string;
  /** Base URL of the EduPass server; without it the monitor warns 'Please set url' and stays off. */
  url: string;
  /**
   * Share of successful API calls reported (§9: 1 in 10). Failures are always reported.
   * @default 0.1
   */
  successSampleRate?: number;
  /**
   * Most JS-error beacons one page sends, so an error thrown in a loop cannot flood the collector.
   * @default 50
   */
  maxErrors?: number;
  /** Report performance (web-vitals: LCP, INP, CLS, FCP, TTFB). @default true */
  vitals?: boolean;
  /** Report the outcome of fetch and XHR calls. @default true */
  api?: boolean;
  /** Report JS errors and unhandled rejections. @default true */
  errors?: boolean;
  /** @default image GET, navigator.sendBeacon POST when too long or when the page is hidden */
  send?: BeaconSender;
  /** @default Math.random */
  random?: () => number;
  /** @default Date.now */
  now?: () => number;
  /** @default console.warn, prefixed */
  logger?: { warn(message: string): void };
}

export type BeaconFields = Omit<MonitorBeacon, 'p' | 'pg' | 't'>;

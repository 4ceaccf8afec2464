/**
 * The usage-report and monitor-beacon wire formats (compatibility.md, "Usage-report payload"), shared
 * by `tracker`, `monitor` and the server so the short keys are written once.
 */
import type { Answer } from './answer-schema.ts';
import type { serverTimeAnswer } from './collector-answers.ts';

/** Collector paths, relative to the server's base URL. */
export const REPORT_PATHS = {
  /** `POST` a {@link ReportPayload}; the collector answers 204. */
  report: (productCode: string) => `/report/${encodeURIComponent(productCode)}`,
  /** `GET` → {@link ServerTime}. */
  time: '/report/time',
  /** `GET` with query fields → 1×1 GIF, or `POST` the same fields as the body → 204. */
  beacon: '/monitor/beacon',
} as const;

/** `m`: who reports. */
export interface ReportMeta {
  /** device_type: 1 is the web. */
  d: 1;
  /** product_code. */
  p: string;
  /** is_dev: 1 while developing, so dashboards can leave it out. */
  tst: 0 | 1;
  /** heatmap: 1 when the site collects click positions. */
  h: 0 | 1;
}

/** `e`: device and environment info. Every key is optional: consents decide what is sent. */
export interface ReportEnv {
  /** `1920x1080`. */
  resolution?: string;
  ua?: string;
  platform?: string;
  /** Effective connection type (`4g`, `wifi`…). */
  net?: string;
  /** Logical processors. */
  cpu?: number;
  /** devicePixelRatio. */
  density?: number;
  /** Random per page load, so events of one visit group together. */
  process_id?: string;
  /** Device uuid, kept in local storage (device consent). */
  uid?: string;
  /** The signed-in user's id (user consent). */
  user_id?: string;
  /** Language, `zh-CN`. */
  la?: string;
}

/** One entry of `b`. */
export interface ReportEvent {
  /** Event key (required, {@link USAGE_LIMITS.keyMax} characters at most). */
  e: string;
  /** Event id: time-ordered and unique, so the server can drop a retried duplicate. */
  i: string;
  /** Unix seconds, corrected by the server-time offset. */
  t: number;
  /** Business data. */
  d: Record<string, unknown>;
  /** Duration of a timed event in milliseconds, hidden-tab time excluded. */
  dur?: number;
}

export interface ReportPayload {
  type: 0;
  alg: '';
  data: { m: ReportMeta; e: ReportEnv; b: ReportEvent[] };
}

/** `now`: unix milliseconds. */
export type ServerTime = Answer<typeof serverTimeAnswer>;

/** Limits beyond TRACKER's that both ends check. */
export const USAGE_LIMITS = {
  keyMax: 128,
  /** Event ids: letters, digits and dashes. */
  idPattern: /^[0-9A-Za-z-]{8,64}$/,
  envValueMax: 512,
  /** The GET beacon switches to POST past this URL length (older browsers and proxies cut near 2 KB). */
  beaconUrlMax: 2000,
  /** Largest beacon body the server takes. */
  beaconBodyMax: 16_384,
} as const;

/** Kinds of monitor beacon (`k`). */
export type MonitorKind = 'perf' | 'api' | 'error';

/** Query fields of one monitor beacon. Numbers travel as decimal strings. */
export interface MonitorBeacon {
  k: MonitorKind;
  /** product_code. */
  p: string;
  /** Page URL (path and query). */
  pg: string;
  /** Client time, unix ms. */
  t: number;
  /** perf: metric name (LCP, INP, CLS, FCP, TTFB); error: message. */
  n?: string;
  /** perf: value (ms, CLS unitless); api: duration ms. */
  v?: number;
  /** api: request URL path. */
  u?: string;
  /** api: method. */
  m?: string;
  /** api: HTTP status, or a MONITOR.codes value when no response came. */
  c?: number;
  /** api: 1 for a business error (HTTP 400–499). */
  b?: 0 | 1;
  /** error: stack or source position. */
  s?: string;
}

export const MONITOR_KINDS: readonly MonitorKind[] = ['perf', 'api', 'error'];
export const VITALS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;

/** What the console's usage and monitor figures are over: a product and a time window in unix ms. */
export interface UsageWindow {
  product: string;
  from: number;
  to: number;
}

/** The buckets figures are grouped by. */
export type UsageBucket = 'hour' | 'day';

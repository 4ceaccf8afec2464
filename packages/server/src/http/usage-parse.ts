/**
 * Turns what arrives at the collector (`unknown`) into checked wire types, or a 400 naming the first
 * problem. The limits are the SDK's (§9), so nothing the tracker sends is refused and nothing larger
 * is taken.
 */
import {
  DAY_MS,
  hasControlCharacters,
  isRecord,
  MONITOR_KINDS,
  type MonitorBeacon,
  type MonitorKind,
  type ReportEnv,
  type ReportEvent,
  type ReportPayload,
  TRACKER,
  USAGE_LIMITS,
  VITALS,
} from '@edupass/protocol';
import { invalidRequest } from '../errors.ts';
import type { CheckedReport } from '../services/usage/ingest.ts';

type Json = Record<string, unknown>;

const bad = (message: string): never => {
  throw invalidRequest(message);
};

/**
 * Text of at most `max` characters without control characters (NUL, which no text column of
 * PostgreSQL can hold, among them); `multiline` text (messages, stacks) keeps its line breaks.
 */
const text = (value: unknown, max: number, name: string, multiline = false): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max || hasControlCharacters(value, multiline))
    return bad(`${name} must be a string of at most ${max} characters, without control characters.`);
  return value;
};

const number = (value: unknown, min: number, max: number, name: string, integer = false): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    return bad(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}.`);
  }
  return value;
};

const flag = (value: unknown, name: string): 0 | 1 => {
  if (value === undefined || value === null || value === 0 || value === false) return 0;
  if (value === 1 || value === true) return 1;
  return bad(`${name} must be 0 or 1.`);
};

/** Longest duration taken: 31 days in milliseconds. */
const DUR_MAX = 31 * DAY_MS;
/** Event times are unix seconds; past this they are milliseconds sent by mistake, or junk. */
const T_MAX = 10_000_000_000;

const parseEnv = (value: unknown): ReportEnv => {
  if (value === undefined) return {};
  if (!isRecord(value)) return bad('data.e must be an object.');
  const max = USAGE_LIMITS.envValueMax;
  const env: ReportEnv = {
    resolution: text(value.resolution, 32, 'data.e.resolution'),
    ua: text(value.ua, max, 'data.e.ua'),
    platform: text(value.platform, max, 'data.e.platform'),
    net: text(value.net, 32, 'data.e.net'),
    cpu: number(value.cpu, 0, 4096, 'data.e.cpu', true),
    density: number(value.density, 0, 100, 'data.e.density'),
    process_id: text(value.process_id, 64, 'data.e.process_id'),
    uid: text(value.uid, 64, 'data.e.uid'),
    user_id: text(value.user_id, 64, 'data.e.user_id'),
    la: text(value.la, 35, 'data.e.la'),
  };
  // Unknown keys are left out rather than stored.
  for (const key of Object.keys(env) as (keyof ReportEnv)[]) if (env[key] === undefined) delete env[key];
  return env;
};

/** JSON.stringify(key).length for an event key (no controls nor lone surrogates): only `"` and `\` are escaped. */
const keyLength = (key: string) => (/["\\]/.test(key) ? JSON.stringify(key).length : key.length + 2);

/**
 * The length of `{"e":…,"i":…,"t":…,"d":…,"dur":…}` as JSON.stringify writes the event, from its `d`
 * already written: the id is letters, digits and dashes, and the numbers are integers.
 */
const eventLength = (event: ReportEvent, dataJson: string) =>
  21 +
  keyLength(event.e) +
  event.i.length +
  2 +
  String(event.t).length +
  dataJson.length +
  (event.dur === undefined ? 0 : 7 + String(event.dur).length);

const parseEvent = (value: unknown, index: number, dataJson: string[]): ReportEvent => {
  const at = `data.b[${index}]`;
  if (!isRecord(value)) return bad(`${at} must be an object.`);
  const key = value.e;
  if (typeof key !== 'string' || key.length === 0 || key.length > USAGE_LIMITS.keyMax || hasControlCharacters(key)) {
    return bad(`${at}.e: events need a key of 1 to ${USAGE_LIMITS.keyMax} characters, without control characters.`);
  }
  if (typeof value.i !== 'string' || !USAGE_LIMITS.idPattern.test(value.i)) {
    return bad(`${at}.i must be an event id of 8 to 64 letters, digits or dashes.`);
  }
  const t = number(value.t, 0, T_MAX, `${at}.t`, true) ?? bad(`${at}.t (unix seconds) is required.`);
  const data = value.d === undefined ? {} : isRecord(value.d) ? value.d : bad(`${at}.d must be an object.`);
  const event: ReportEvent = { e: key, i: value.i, t, d: data };
  const dur = number(value.dur, 0, DUR_MAX, `${at}.dur`, true);
  if (dur !== undefined) event.dur = dur;
  const json = JSON.stringify(data);
  if (TRACKER.sizeFactor * eventLength(event, json) > TRACKER.eventSizeLimit) {
    return bad(`${at} is over the event size limit of ${TRACKER.eventSizeLimit}.`);
  }
  dataJson.push(json);
  return event;
};

/** A usage batch as sent to `POST /report/:product` (the raw body text). */
export const parseReport = (raw: string, productInPath: string): CheckedReport => {
  if (TRACKER.sizeFactor * raw.length > TRACKER.requestSizeLimit) {
    return bad(`The batch is over the request size limit of ${TRACKER.requestSizeLimit}.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return bad('The body is not valid JSON.');
  }
  if (!isRecord(body)) return bad('The body must be a JSON object.');
  if (body.type !== 0) return bad('type must be 0.');
  if (body.alg !== '' && body.alg !== undefined) return bad('alg must be "": encrypted batches are not supported.');
  const data = body.data;
  if (!isRecord(data) || !isRecord(data.m)) return bad('data.m is required.');
  const { m } = data;
  if (m.p !== productInPath) return bad('data.m.p must be the product code in the path.');
  if (m.d !== undefined && m.d !== 1) return bad('data.m.d must be 1 (web).');
  const events = data.b;
  if (!Array.isArray(events) || events.length === 0 || events.length > TRACKER.queueMax) {
    return bad(`data.b must hold 1 to ${TRACKER.queueMax} events.`);
  }
  const dataJson: string[] = [];
  const payload: ReportPayload = {
    type: 0,
    alg: '',
    data: {
      m: { d: 1, p: productInPath, tst: flag(m.tst, 'data.m.tst'), h: flag(m.h, 'data.m.h') },
      e: parseEnv(data.e),
      b: events.map((event, index) => parseEvent(event, index, dataJson)),
    },
  };
  return { payload, dataJson };
};

const field = (fields: Json, name: string, max: number, multiline = false): string | undefined => {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  // A repeated query key arrives as an array: refuse it rather than guess.
  return text(value, max, name, multiline);
};

const numeric = (fields: Json, name: string, min: number, max: number, integer = false): number | undefined => {
  const raw = field(fields, name, 32);
  return raw === undefined ? undefined : number(Number(raw), min, max, name, integer);
};

/** A monitor beacon's fields, from the GET query or the POST body (the same fields, URL-encoded). */
export const parseBeacon = (fields: Json): MonitorBeacon => {
  const kind = field(fields, 'k', 8) as MonitorKind | undefined;
  if (kind === undefined || !MONITOR_KINDS.includes(kind)) return bad(`k must be one of ${MONITOR_KINDS.join(', ')}.`);
  const beacon: MonitorBeacon = {
    k: kind,
    p: field(fields, 'p', 64) ?? bad('p (product code) is required.'),
    pg: field(fields, 'pg', 512) ?? '',
    t: numeric(fields, 't', 0, 1e14, true) ?? 0,
    n: field(fields, 'n', 512, true),
    v: numeric(fields, 'v', -1e12, 1e12),
    u: field(fields, 'u', 512),
    m: field(fields, 'm', 16)?.toUpperCase(),
    c: numeric(fields, 'c', 0, 999, true),
    b: numeric(fields, 'b', 0, 1, true) as 0 | 1 | undefined,
    s: field(fields, 's', 2048, true),
  };
  if (kind === 'perf' && (!(VITALS as readonly string[]).includes(beacon.n ?? '') || beacon.v === undefined)) {
    return bad(`A perf beacon needs n (one of ${VITALS.join(', ')}) and v.`);
  }
  if (kind === 'api' && (beacon.u === undefined || beacon.c === undefined)) return bad('An api beacon needs u and c.');
  if (kind === 'error' && beacon.n === undefined) return bad('An error beacon needs n (the message).');
  return beacon;
};

/** The POST beacon's body: the same fields as the GET query string. */
export const beaconBody = (raw: string): Json => {
  if (raw.length > USAGE_LIMITS.beaconBodyMax)
    return bad(`The beacon is over ${USAGE_LIMITS.beaconBodyMax} characters.`);
  // No prototype: a hostile "__proto__" field is just a key here.
  const fields: Json = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw))
    fields[key] = Object.hasOwn(fields, key) ? [fields[key], value] : value;
  return fields;
};

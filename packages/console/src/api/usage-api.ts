/** The usage and monitoring dashboards' calls, typed; answers are read with `parse.ts`. */
import { type ApiCodeCount, adminRoutes, type ErrorGroup, type VitalPoint } from '@edupass/protocol';
import { adminCall, getList, type Query } from './admin-call.ts';
import { bool, num, numOrNull, record, str } from './parse.ts';

/** A product and a window in unix ms. */
export interface Window {
  product: string;
  from: number;
  to: number;
}
export type Bucket = 'hour' | 'day';
const windowQuery = (w: Window): Query => ({ product: w.product, from: w.from, to: w.to });

export interface EventCount {
  key: string;
  bucket: number;
  count: number;
}
export const eventCounts = (w: Window, bucket: Bucket, key?: string): Promise<EventCount[]> =>
  getList(adminRoutes.usageEvents, { ...windowQuery(w), bucket, key: key || undefined }, (r) => ({
    key: str(r.key),
    bucket: num(r.bucket),
    count: num(r.count),
  }));

export const uniqueCounts = async (w: Window) => {
  const r = record(await adminCall(adminRoutes.usageUniques, { query: windowQuery(w) }));
  return { devices: num(r.devices), users: num(r.users), events: num(r.events) };
};

export interface DurationStats {
  key: string;
  count: number;
  p50: number | null;
  p75: number | null;
  p90: number | null;
  p99: number | null;
}
export const durationStats = async (w: Window, key: string): Promise<DurationStats> => {
  const r = record(await adminCall(adminRoutes.usageDurations, { query: { ...windowQuery(w), key } }));
  return {
    key: str(r.key),
    count: num(r.count),
    p50: numOrNull(r.p50),
    p75: numOrNull(r.p75),
    p90: numOrNull(r.p90),
    p99: numOrNull(r.p99),
  };
};

export const errorGroups = (w: Window): Promise<ErrorGroup[]> =>
  getList(adminRoutes.monitorErrorGroups, windowQuery(w), (r) => ({
    message: str(r.message),
    count: num(r.count),
    pages: num(r.pages),
    last_seen: num(r.last_seen),
  }));

export interface ApiFailureRate {
  path: string;
  failures: number;
  businessErrors: number;
  estimatedCalls: number;
  failureRate: number;
}
export const apiFailureRates = (w: Window): Promise<ApiFailureRate[]> =>
  getList(adminRoutes.monitorApi, windowQuery(w), (r) => ({
    path: str(r.path),
    failures: num(r.failures),
    businessErrors: num(r.business_errors),
    estimatedCalls: num(r.estimated_calls),
    failureRate: num(r.failure_rate),
  }));

export const apiCodes = (w: Window): Promise<ApiCodeCount[]> =>
  getList(adminRoutes.monitorApiCodes, windowQuery(w), (r) => ({
    path: str(r.path),
    code: num(r.code),
    business: bool(r.business),
    count: num(r.count),
  }));

export const vitalsOverall = (w: Window) =>
  getList(adminRoutes.monitorVitals, windowQuery(w), (r) => ({
    name: str(r.name),
    count: num(r.count),
    p75: numOrNull(r.p75),
  }));

export const vitalsSeries = (w: Window, bucket: Bucket): Promise<VitalPoint[]> =>
  getList(adminRoutes.monitorVitalsSeries, { ...windowQuery(w), bucket }, (r) => ({
    name: str(r.name),
    bucket: num(r.bucket),
    count: num(r.count),
    p75: num(r.p75),
  }));

/** The usage and monitoring dashboards' calls, typed by the route table. */
import { adminRoutes, type UsageBucket, type UsageWindow } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

const windowQuery = (w: UsageWindow) => ({ product: w.product, from: w.from, to: w.to });

export const eventCounts = (w: UsageWindow, bucket: UsageBucket, key?: string) =>
  adminCall(adminRoutes.usageEvents, { query: { ...windowQuery(w), bucket, key: key || undefined } });

export const uniqueCounts = (w: UsageWindow) => adminCall(adminRoutes.usageUniques, { query: windowQuery(w) });

export const durationStats = (w: UsageWindow, key: string) =>
  adminCall(adminRoutes.usageDurations, { query: { ...windowQuery(w), key } });

export const errorGroups = (w: UsageWindow) => adminCall(adminRoutes.monitorErrorGroups, { query: windowQuery(w) });

export const apiFailureRates = (w: UsageWindow) => adminCall(adminRoutes.monitorApi, { query: windowQuery(w) });

export const apiCodes = (w: UsageWindow) => adminCall(adminRoutes.monitorApiCodes, { query: windowQuery(w) });

export const vitalsOverall = (w: UsageWindow) => adminCall(adminRoutes.monitorVitals, { query: windowQuery(w) });

export const vitalsSeries = (w: UsageWindow, bucket: UsageBucket) =>
  adminCall(adminRoutes.monitorVitalsSeries, { query: { ...windowQuery(w), bucket } });

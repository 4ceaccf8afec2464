/** The columns an event and a beacon insert bind, in the order their parameters are given. */
import type { MonitorBeaconsTable, UsageEventsTable } from './events.ts';

export const EVENT_COLUMNS = [
  'product_code',
  'event_id',
  'event_key',
  'at',
  'received_at',
  'dur',
  'data',
  'device_uid',
  'user_id',
  'process_id',
  'ip',
  'ua',
  'platform',
  'net',
  'language',
  'resolution',
  'cpu',
  'density',
  'is_dev',
] as const satisfies readonly (keyof UsageEventsTable)[];

export const BEACON_COLUMNS = [
  'product_code',
  'kind',
  'page',
  'name',
  'value',
  'url',
  'method',
  'code',
  'business',
  'stack',
  'ip',
  'ua',
  'at',
  'received_at',
] as const satisfies readonly Exclude<keyof MonitorBeaconsTable, 'id'>[];

/** Usage event rows for tests that write the store directly: every column, the optional ones empty. */
import { randomUUID } from 'node:crypto';
import type { NewUsageEvent } from '../../server/src/store/usage/events-store.ts';

export const usageEventRow = (
  fields: Pick<NewUsageEvent, 'product_code' | 'event_key' | 'at' | 'received_at'> & Partial<NewUsageEvent>,
): NewUsageEvent => ({
  event_id: randomUUID(),
  dur: null,
  data: '{}',
  device_uid: null,
  user_id: null,
  process_id: null,
  ip: '127.0.0.1',
  ua: null,
  platform: null,
  net: null,
  language: null,
  resolution: null,
  cpu: null,
  density: null,
  is_dev: 0,
  ...fields,
});

/**
 * A ClickHouse events store for a suite that drives the store directly (server-clickhouse project):
 * opened on a fresh test database before the suite, with a client on the same database for reading
 * the tables, all closed and dropped after it. `reopen()` closes the store and opens it again (the
 * schema brought up to date, as at a restart).
 */
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { afterAll, beforeAll } from 'vitest';
import { openClickHouseEvents } from '../../server/src/store/usage/clickhouse-events.ts';
import { parseClickHouseUrl } from '../../server/src/store/usage/clickhouse-schema.ts';
import type { EventsStore } from '../../server/src/store/usage/events-store.ts';
import { createClickHouseTestDatabase, testEventsKind } from './clickhouse-database.ts';

export interface ClickHouseEventsSuite {
  store(): EventsStore;
  client: ClickHouseClient;
  reopen(): Promise<void>;
}

const quiet = { info() {}, warn() {}, error() {} };

export const clickhouseEventsSuite = (): ClickHouseEventsSuite => {
  const database = testEventsKind() === 'clickhouse' ? createClickHouseTestDatabase() : undefined;
  const target = parseClickHouseUrl(database?.config.usageDatabaseUrl ?? 'clickhouse://localhost/none');
  const open = () =>
    openClickHouseEvents({ target, spoolDir: database?.config.usageSpoolDir ?? '', logger: quiet, now: Date.now });
  const client = createClient({ url: target.url, database: target.database });
  let store: EventsStore | undefined;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store?.close();
    await client.close();
    await database?.drop();
  });
  return {
    store: () => {
      if (!store) throw new Error('the ClickHouse events store is not open');
      return store;
    },
    client,
    async reopen() {
      await store?.close();
      store = await open();
    },
  };
};

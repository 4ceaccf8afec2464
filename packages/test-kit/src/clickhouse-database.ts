/**
 * A fresh ClickHouse database per test server when the usage suites run on ClickHouse
 * (EDUPASS_TEST_EVENTS=clickhouse, the `server-clickhouse` project): on the server at
 * EDUPASS_TEST_CLICKHOUSE_URL (a scratch one started by scripts/test.mjs or the project's global
 * setup), with a spool directory of its own; dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import type { UsageStoreConfig } from '../../server/src/config/usage-store-config.ts';

export const testEventsKind = (): 'clickhouse' | 'sql' =>
  process.env.EDUPASS_TEST_EVENTS === 'clickhouse' ? 'clickhouse' : 'sql';

export interface TestEventsDatabase {
  config: UsageStoreConfig;
  drop(): Promise<void>;
}

export const clickhouseHttpUrl = (): string => {
  const url = process.env.EDUPASS_TEST_CLICKHOUSE_URL;
  if (!url) throw new Error('EDUPASS_TEST_CLICKHOUSE_URL is not set: run through the server-clickhouse project');
  return url;
};

/** A new database on the test ClickHouse (and a spool directory), for one test server. */
export const createClickHouseTestDatabase = (base = clickhouseHttpUrl()): TestEventsDatabase => {
  const name = `edupass_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const spool = mkdtempSync(join(tmpdir(), 'edupass-spool-'));
  const http = new URL(base);
  return {
    config: { usageDatabaseUrl: `clickhouse://default@${http.host}/${name}`, usageSpoolDir: spool },
    async drop() {
      const client = createClient({ url: base });
      try {
        await client.command({ query: `DROP DATABASE IF EXISTS ${name}` });
      } finally {
        await client.close();
        rmSync(spool, { recursive: true, force: true });
      }
    },
  };
};

/** The ClickHouse database for a test server when the suite runs on ClickHouse, else none. */
export const createTestEventsDatabase = (): TestEventsDatabase | undefined =>
  testEventsKind() === 'clickhouse' ? createClickHouseTestDatabase() : undefined;

/** How many active parts of `table` hold partitions (UTC day numbers) before `day`. */
export const partsBeforeDay = async (client: ClickHouseClient, table: string, day: number): Promise<number> => {
  const [row] = await (
    await client.query({
      query: `SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = '${table}'
        AND active AND toInt64(partition_id) < ${day}`,
      format: 'JSONEachRow',
    })
  ).json<{ n: string }>();
  return Number(row?.n);
};

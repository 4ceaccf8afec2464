/**
 * Where usage events and monitor beacons live (store/usage/events-store.ts): USAGE_DATABASE_URL unset keeps
 * them in DATABASE_URL's database; `clickhouse://user:password@host:8123/database` (or
 * `clickhouses://` for TLS) puts them in ClickHouse, with batches ClickHouse does not take kept in
 * USAGE_SPOOL_DIR (default: `usage-spool` beside the SQLite file, else `./data/usage-spool`).
 */
import { dirname, join } from 'node:path';
import { isClickHouseUrl } from '../store/usage/clickhouse-schema.ts';
import type { Readers } from './readers.ts';

export interface UsageStoreConfig {
  /** A clickhouse:// URL, or undefined for the accounts database. */
  usageDatabaseUrl: string | undefined;
  usageSpoolDir: string;
}

export const readUsageStoreConfig = (
  { str }: Readers,
  problems: string[],
  databaseUrl: string,
  sqlite: boolean,
): UsageStoreConfig => {
  const usageDatabaseUrl = str('USAGE_DATABASE_URL');
  if (usageDatabaseUrl !== undefined && !isClickHouseUrl(usageDatabaseUrl)) {
    problems.push(
      `USAGE_DATABASE_URL="${usageDatabaseUrl}" must be a clickhouse:// URL. Fix: e.g. USAGE_DATABASE_URL=clickhouse://default@127.0.0.1:8123/edupass, or unset it to keep events in DATABASE_URL.`,
    );
  }
  const dataDir = sqlite ? dirname(databaseUrl) : './data';
  return { usageDatabaseUrl, usageSpoolDir: str('USAGE_SPOOL_DIR') ?? join(dataDir, 'usage-spool') };
};

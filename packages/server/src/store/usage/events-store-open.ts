/** The events store the configuration names: ClickHouse with USAGE_DATABASE_URL, else the accounts database. */
import type { Kysely } from 'kysely';
import type { UsageStoreConfig } from '../../config/usage-store-config.ts';
import type { Logger } from '../../logger.ts';
import type { Database } from '../schema.ts';
import { openClickHouseEvents } from './clickhouse-events.ts';
import { parseClickHouseUrl } from './clickhouse-schema.ts';
import { sqlEventsStore } from './events-sql.ts';
import type { EventsStore } from './events-store.ts';

export const openEventsStore = (
  config: UsageStoreConfig,
  db: Kysely<Database>,
  readDb: Kysely<Database>,
  logger: Logger,
  now: () => number,
): Promise<EventsStore> =>
  config.usageDatabaseUrl === undefined
    ? Promise.resolve(sqlEventsStore(db, readDb))
    : openClickHouseEvents({
        target: parseClickHouseUrl(config.usageDatabaseUrl),
        spoolDir: config.usageSpoolDir,
        logger,
        now,
      });

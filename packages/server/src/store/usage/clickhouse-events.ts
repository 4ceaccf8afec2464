/**
 * The events store on ClickHouse (USAGE_DATABASE_URL=clickhouse://…): no event or beacon row goes to
 * the accounts database. A write resolves once ClickHouse accepted the batch, or — ClickHouse down,
 * slow or refusing — once the batch is in the local durable spool, which ships it later with the same
 * ids (retried every `retryMs` until it is taken). Retention drops whole daily partitions, of the
 * events and of their rollups; the sweep settles what the dashboards read (clickhouse-settled.ts,
 * clickhouse-breakdowns.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { DAY_MS } from '@edupass/protocol';
import { RetryLater } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { BREAKDOWN_TABLES, ensureBreakdowns, settleBreakdowns } from './clickhouse-breakdowns.ts';
import { ensureRollups, ROLLUP_TABLES } from './clickhouse-rollups.ts';
import { type ClickHouseTarget, connectClickHouse, ensureSchema, int, rowsOf, str } from './clickhouse-schema.ts';
import { ensureSettled, settle, unsettleSpansBefore, visitorKey } from './clickhouse-settled.ts';
import { clickhouseStats } from './clickhouse-stats.ts';
import { openSpool } from './events-spool.ts';
import type { EventCursor, EventsStore, NewBeacon, NewUsageEvent, StoredEvent } from './events-store.ts';

/** A batch as ClickHouse stores it: beacons carry the id given on arrival. */
interface Batch {
  events: NewUsageEvent[];
  beacons: (NewBeacon & { beacon_id: string })[];
}

export interface ClickHouseEventsOptions {
  target: ClickHouseTarget;
  spoolDir: string;
  logger: Logger;
  now: () => number;
  /** How long an insert (then its batch goes to the spool) or a query may take. */
  requestTimeoutMs?: number;
  /** How often the spool tries ClickHouse again while it holds batches. */
  retryMs?: number;
}

const EVENT_COLUMNS =
  'product_code, event_id, event_key, at, received_at, dur, data, device_uid, user_id, process_id, ip, ua, platform, net, language, resolution, cpu, density, is_dev';

type Raw<T> = {
  [K in keyof T]: T[K] extends number ? number | string : T[K] extends number | null ? T[K] | string : T[K];
};

const eventRow = (row: Raw<StoredEvent>): StoredEvent => ({
  ...row,
  at: Number(row.at),
  received_at: Number(row.received_at),
  dur: row.dur === null ? null : Number(row.dur),
  cpu: row.cpu === null ? null : Number(row.cpu),
  density: row.density === null ? null : Number(row.density),
  is_dev: Number(row.is_dev),
});

const insertBatch = async (client: ClickHouseClient, batch: Batch) => {
  if (batch.events.length > 0) {
    await client.insert({ table: 'usage_events', values: batch.events, format: 'JSONEachRow' });
  }
  if (batch.beacons.length > 0) {
    await client.insert({
      table: 'monitor_beacons',
      values: batch.beacons.map(({ id: _id, ...beacon }) => beacon),
      format: 'JSONEachRow',
    });
  }
};

/** Drops the daily partitions wholly received before `before`; answers the rows they held. */
const dropDaysBefore = async (client: ClickHouseClient, table: string, before: number) => {
  const parts = await rowsOf<{ partition: string; n: string }>(
    client,
    `SELECT partition, sum(rows) AS n FROM system.parts
     WHERE database = currentDatabase() AND table = ${str(table)} AND active GROUP BY partition`,
  );
  let dropped = 0;
  for (const { partition, n } of parts) {
    const day = Number(partition.replace(/'/g, ''));
    if (!Number.isSafeInteger(day) || (day + 1) * DAY_MS > before) continue;
    await client.command({ query: `ALTER TABLE ${table} DROP PARTITION ${int(day)}` });
    dropped += Number(n);
  }
  return dropped;
};

export const openClickHouseEvents = async (options: ClickHouseEventsOptions): Promise<EventsStore> => {
  const { target, logger, now, requestTimeoutMs = 30_000, retryMs = 1000 } = options;
  await ensureSchema(target, requestTimeoutMs);
  const client = connectClickHouse(target, requestTimeoutMs);
  await ensureRollups(client);
  await ensureSettled(client);
  await ensureBreakdowns(client);
  const spool = openSpool<Batch>(options.spoolDir, now);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const ship = () => spool.ship((batch) => insertBatch(client, batch));
  /** Events in (product, id) order after `after` (of one user's id, when given), each id once: export pages. */
  const eventsPage = async (userId: number | undefined, after: EventCursor | undefined, limit: number) => {
    const where = [
      ...(userId === undefined ? [] : [`user_id = ${str(String(userId))}`]),
      ...(after
        ? [
            `(product_code > ${str(after.product_code)} OR (product_code = ${str(after.product_code)} AND event_id > ${str(after.event_id)}))`,
          ]
        : []),
    ];
    const rows = await rowsOf<Raw<StoredEvent>>(
      client,
      `SELECT ${EVENT_COLUMNS} FROM usage_events
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY product_code, event_id LIMIT 1 BY product_code, event_id LIMIT ${int(limit)}`,
    );
    return rows.map(eventRow);
  };
  const retryLater = () => {
    if (timer !== undefined || closed) return;
    timer = setTimeout(async () => {
      const empty = await ship().catch(() => false);
      timer = undefined;
      if (empty) logger.info({ spool: options.spoolDir }, 'usage spool: shipped to ClickHouse');
      else retryLater();
    }, retryMs);
    timer.unref();
  };
  // Batches spooled by an earlier run ship as soon as ClickHouse answers.
  if (spool.batches() > 0) retryLater();

  return {
    kind: 'clickhouse',
    async write(rows) {
      const batch: Batch = {
        events: rows.events,
        beacons: rows.beacons.map((beacon) => ({ ...beacon, beacon_id: randomUUID() })),
      };
      try {
        await insertBatch(client, batch);
        return;
      } catch (error) {
        logger.warn({ err: error }, 'usage: ClickHouse did not take a batch; it waits in the local spool');
      }
      try {
        await spool.add(batch, batch.events.length + batch.beacons.length);
      } catch (error) {
        logger.error({ err: error }, 'usage: cannot write the local spool either');
        throw new RetryLater(5, 'Usage storage is unavailable; retry later.');
      }
      retryLater();
    },
    async deleteBefore(before) {
      await unsettleSpansBefore(client, before);
      const gone = {
        events: await dropDaysBefore(client, 'usage_events', before),
        beacons: await dropDaysBefore(client, 'monitor_beacons', before),
      };
      // The rollups are partitioned by the same received days: their days go with the events'.
      for (const table of ROLLUP_TABLES) await dropDaysBefore(client, table, before);
      // Settled counts and breakdowns are partitioned by the day of their hour: old ones go (a late hour
      // is counted again; a remaining hour that lost rows no longer matches its fingerprint).
      for (const table of ['usage_key_counts', ...BREAKDOWN_TABLES]) await dropDaysBefore(client, table, before);
      return gone;
    },
    async eraseUser(userId) {
      // Events still in the local spool are shipped first, so the mutation sees them.
      await ship();
      const user = str(String(userId));
      await client.command({ query: `ALTER TABLE usage_events DELETE WHERE user_id = ${user}` });
      await client.command({
        query: `ALTER TABLE usage_visitor_masks DELETE WHERE kind = 1 AND visitor = ${visitorKey(user)}`,
      });
      return -1;
    },
    settle: async (at) => {
      const { hours, days } = await settle(client, at);
      return { hours: hours + (await settleBreakdowns(client, at)), days };
    },
    ...clickhouseStats(client),
    counts: async () => {
      const [events] = await rowsOf<{ n: string }>(
        client,
        'SELECT uniqExact(product_code, event_id) AS n FROM usage_events',
      );
      const [beacons] = await rowsOf<{ n: string }>(client, 'SELECT uniqExact(beacon_id) AS n FROM monitor_beacons');
      return { events: Number(events?.n ?? 0), beacons: Number(beacons?.n ?? 0) };
    },
    eventsAfter: (after, limit) => eventsPage(undefined, after, limit),
    userEventsAfter: async (userId, after, limit) => {
      // Events still in the local spool are shipped first, so the copy holds them.
      await ship();
      return eventsPage(userId, after, limit);
    },
    eventsById: async (product, ids) =>
      ids.length === 0
        ? []
        : (
            await rowsOf<Raw<StoredEvent>>(
              client,
              `SELECT ${EVENT_COLUMNS} FROM usage_events
               WHERE product_code = ${str(product)} AND event_id IN (${ids.map(str).join(', ')})
               LIMIT 1 BY event_id`,
            )
          ).map(eventRow),
    unshipped: () => spool.batches(),
    shipSpool: ship,
    async close() {
      closed = true;
      clearTimeout(timer);
      await client.close();
    },
  };
};

/** Webhook endpoints: where a product's account events go, and how their deliveries have been faring. */
import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import type { Database, WebhookEndpointsTable } from '../schema.ts';
import { cachedSetting, writeSettings } from '../settings-cache.ts';

type Db = Kysely<Database>;

export type NewEndpoint = Pick<WebhookEndpointsTable, 'pid' | 'url' | 'events' | 'secret_sealed' | 'created_at'>;

const FRESH = { enabled: 1, disabled_reason: '', consecutive_failures: 0, failing_since: null };

export const insertEndpoint = (db: Db, row: NewEndpoint) =>
  writeSettings(db, 'webhooks', () =>
    db
      .insertInto('webhook_endpoints')
      .values({ ...row, ...FRESH })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

export const allEndpoints = (db: Db) => db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();

export const findEndpoint = (db: Db, id: number) =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

// Every account event asks it (a sign-in's session.started among them), in its transaction.
const endpointsQuery = compiledOnce(
  (db, pid: string, everyProduct: string) =>
    db.selectFrom('webhook_endpoints').select(['id', 'events']).where('pid', 'in', [pid, everyProduct]),
  ['', ''],
);

/**
 * Endpoints of a product (or of every product, `*`), to fan an event out to, enabled or not: a
 * disabled endpoint's deliveries wait for it to be enabled again. Remembered per process
 * (settings-cache.ts): adding and removing endpoints forget it.
 */
export const endpointsFor = (db: Db, pid: string) =>
  cachedSetting(db, 'webhooks', pid, async () => (await endpointsQuery(db, pid, '*')).rows);

/** The endpoints turned off, for the sweep of what waits for them. */
export const disabledEndpointIds = async (db: Db) =>
  (await db.selectFrom('webhook_endpoints').select('id').where('enabled', '=', 0).execute()).map((row) =>
    Number(row.id),
  );

/** Removes an endpoint with its deliveries and their attempts; false when there was none. */
export const deleteEndpoint = (db: Db, id: number) =>
  writeSettings(db, 'webhooks', () =>
    db.transaction().execute(async (tx) => {
      const deliveries = tx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id);
      await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
      await tx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
      const removed = await tx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return Number(removed.numDeletedRows) > 0;
    }),
  );

/**
 * Turns an endpoint on (clearing its failure run) or off (with the reason, empty for an operator);
 * `onlyIfEnabled` makes turning off answer true for the one caller that did it.
 */
export const setEndpointEnabled = async (
  db: Db,
  id: number,
  enabled: boolean,
  reason = '',
  { onlyIfEnabled = false } = {},
) => {
  const changes = enabled ? FRESH : { enabled: 0, disabled_reason: reason };
  let query = db.updateTable('webhook_endpoints').set(changes).where('id', '=', id);
  if (onlyIfEnabled) query = query.where('enabled', '=', 1);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

export const recordEndpointSuccess = (db: Db, id: number) =>
  db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0, failing_since: null })
    .where('id', '=', id)
    .execute();

/** Counts a failed attempt; answers the endpoint's failure run as it now stands. */
export const recordEndpointFailure = (db: Db, id: number, now: number) =>
  db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', 1),
      failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
    }))
    .where('id', '=', id)
    .returning(['consecutive_failures', 'failing_since', 'enabled'])
    .executeTakeFirst();

export const setEndpointSecret = (db: Db, id: number, secretSealed: string) =>
  db.updateTable('webhook_endpoints').set({ secret_sealed: secretSealed }).where('id', '=', id).execute();

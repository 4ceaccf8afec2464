/**
 * SAML sign-in's state: federations' metadata copies and the AuthnRequests waiting for an answer (the
 * assertions already accepted are upstream tokens taken once: connectors.ts). Taking a request and
 * recording an assertion are single statements, so two copies of one response racing each other
 * cannot both pass, on SQLite and on PostgreSQL alike.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../schema.ts';

type Db = Kysely<Database>;

export const findSamlMetadata = (db: Db, url: string) =>
  db.selectFrom('saml_metadata').selectAll().where('url', '=', url).executeTakeFirst();

/** Keeps a good copy (checked by the caller) fetched now. */
export const putSamlMetadata = (db: Db, url: string, xml: string, now: number) =>
  db
    .insertInto('saml_metadata')
    .values({ url, xml, fetched_at: now, tried_at: now })
    .onConflict((oc) => oc.column('url').doUpdateSet({ xml, fetched_at: now, tried_at: now }))
    .execute();

/** A failed refresh: the copy stays, the next attempt waits the interval. */
export const markSamlMetadataTried = (db: Db, url: string, now: number) =>
  db.updateTable('saml_metadata').set({ tried_at: now }).where('url', '=', url).execute();

export const insertSamlRequest = (db: Db, row: { request_id: string; connector_id: number; expires_at: number }) =>
  db.insertInto('saml_requests').values(row).execute();

/** Takes a waiting request once: true for the one caller whose delete removed it, unexpired. */
export const takeSamlRequest = async (db: Db, requestId: string, connectorId: number, now: number) =>
  Number(
    (
      await db
        .deleteFrom('saml_requests')
        .where('request_id', '=', requestId)
        .where('connector_id', '=', connectorId)
        .where('expires_at', '>', now)
        .executeTakeFirst()
    ).numDeletedRows,
  ) === 1;

/** Housekeeping: SAML requests past their time. */
export const sweepSamlRequests = async (db: Db, now: number) => {
  const requests = await db.deleteFrom('saml_requests').where('expires_at', '<=', now).executeTakeFirst();
  return { samlRequests: Number(requests.numDeletedRows) };
};

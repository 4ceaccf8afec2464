/**
 * Schools' sign-in connectors, the identities they linked, the sign-ins single logout ends, and the
 * upstream tokens taken once.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../schema.ts';
import type { SchoolConnectorsTable, SchoolSignInsTable } from './connector-schema.ts';

type Db = Kysely<Database>;

export const insertConnector = (db: Db, row: Insertable<SchoolConnectorsTable>) =>
  db.insertInto('school_connectors').values(row).returningAll().executeTakeFirstOrThrow();

export const findConnectorByCode = (db: Db, code: string) =>
  db.selectFrom('school_connectors').selectAll().where('code', '=', code).executeTakeFirst();

export const findConnector = (db: Db, id: number) =>
  db.selectFrom('school_connectors').selectAll().where('id', '=', id).executeTakeFirst();

/** Sets a connector's mapping (JSON); its row afterwards, undefined when there is none. */
export const updateConnectorMapping = (db: Db, id: number, mapping: string) =>
  db.updateTable('school_connectors').set({ mapping }).where('id', '=', id).returningAll().executeTakeFirst();

/** Sets a connector's name and settings (JSON); its row afterwards, undefined when there is none. */
export const updateConnectorSettings = (db: Db, id: number, name: string, settings: string) =>
  db.updateTable('school_connectors').set({ name, settings }).where('id', '=', id).returningAll().executeTakeFirst();

export const allConnectors = (db: Db) => db.selectFrom('school_connectors').selectAll().orderBy('id').execute();

/** The enabled connectors with their school's name, for the "sign in with your school" chooser. */
export const enabledConnectors = (db: Db) =>
  db
    .selectFrom('school_connectors')
    .innerJoin('schools', 'schools.id', 'school_connectors.school_id')
    .select([
      'school_connectors.code',
      'school_connectors.name',
      'school_connectors.kind',
      'schools.name as school_name',
    ])
    .where('school_connectors.enabled', '=', 1)
    .orderBy('school_connectors.id')
    .execute();

/** Switches a connector off or on; its row afterwards, undefined when there is none. */
export const setConnectorEnabled = (db: Db, id: number, enabled: boolean) =>
  db
    .updateTable('school_connectors')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export const insertSchoolSignIn = (db: Db, row: Insertable<SchoolSignInsTable>) =>
  db
    .insertInto('school_sign_ins')
    .values(row)
    .onConflict((oc) => oc.column('ticket_hash').doNothing())
    .execute();

/** The school sign-in that started the session `sessionKey`, if one did. */
export const findSchoolSignInOfSession = (db: Db, sessionKey: string) =>
  db
    .selectFrom('school_sign_ins')
    .select(['connector_id', 'upstream_sign_out'])
    .where('session_key', '=', sessionKey)
    .executeTakeFirst();

/** Takes the sign-in a ticket started (once: the delete that removes it wins). */
export const takeSchoolSignIn = (db: Db, connectorId: number, ticketHash: string) =>
  db
    .deleteFrom('school_sign_ins')
    .where('ticket_hash', '=', ticketHash)
    .where('connector_id', '=', connectorId)
    .returning(['user_id', 'session_key'])
    .executeTakeFirst();

/**
 * Takes the sign-ins a platform's logout names: those its session `upstreamSession` started, those of
 * the person `upstreamSubject`, or (both named) those of that person in that session. One `DELETE`, so
 * a logout racing another ends each session once.
 */
export const takePlatformSignIns = (
  db: Db,
  connectorId: number,
  named: { upstreamSession?: string | undefined; upstreamSubject?: string | undefined },
) => {
  if (named.upstreamSession === undefined && named.upstreamSubject === undefined) return Promise.resolve([]);
  let taken = db.deleteFrom('school_sign_ins').where('connector_id', '=', connectorId);
  if (named.upstreamSession !== undefined) taken = taken.where('upstream_session', '=', named.upstreamSession);
  if (named.upstreamSubject !== undefined) taken = taken.where('upstream_subject', '=', named.upstreamSubject);
  return taken.returning(['user_id', 'session_key']).execute();
};

/**
 * Records an upstream token as taken (an accepted SAML assertion, a platform's logout token) until
 * `expiresAt`: false when it was taken before (a replay). One statement, so of racing copies one wins.
 */
export const recordUpstreamToken = async (db: Db, tokenKey: string, expiresAt: number) =>
  Number(
    (
      await db
        .insertInto('upstream_tokens_used')
        .values({ token_key: tokenKey, expires_at: expiresAt })
        .onConflict((oc) => oc.column('token_key').doNothing())
        .executeTakeFirst()
    ).numInsertedOrUpdatedRows ?? 0,
  ) === 1;

/** Housekeeping: used upstream tokens past their time (a copy of one could no longer pass anyway). */
export const sweepUpstreamTokens = async (db: Db, now: number) => {
  const tokens = await db.deleteFrom('upstream_tokens_used').where('expires_at', '<=', now).executeTakeFirst();
  return { upstreamTokens: Number(tokens.numDeletedRows) };
};

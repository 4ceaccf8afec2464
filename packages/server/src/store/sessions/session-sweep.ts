/**
 * The hourly sweep's part of sessions (services/platform/housekeeping.ts): sessions nothing can use
 * any more go with their refresh tokens (the foreign key's cascade) and their school sign-ins, and the
 * school sign-ins of sessions that ended lately go at once. Each delete finds its rows through an
 * index, so its work follows the rows it deletes, not the size of the tables.
 */
import type { Kysely } from 'kysely';
import { SWEEP_BATCH as BATCH, inBatches } from '../in-batches.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface SessionCutoffs {
  /** Sessions ended before this go (`sessions_revoked`). */
  endedBefore: number;
  /** Sessions never ended that began before this go (`sessions_live_created`). */
  begunBefore: number;
  /** School sign-ins of sessions ended since this go (`sessions_revoked`, then `school_sign_ins_session`). */
  endedSince: number;
}

/** Sessions ended before `before`, through the partial index `sessions_revoked`. */
export const endedSessionsQuery = (db: Db, before: number) =>
  db.selectFrom('sessions').select('id').where('revoked_at', '<=', before).limit(BATCH);

/** Sessions never ended that began before `before`, through the partial index `sessions_live_created`. */
export const begunSessionsQuery = (db: Db, before: number) =>
  db.selectFrom('sessions').select('id').where('revoked_at', 'is', null).where('created_at', '<', before).limit(BATCH);

/** School sign-ins of sessions ended since `since`: the sessions by `sessions_revoked`, each sign-in by its session. */
export const endedSignInsQuery = (db: Db, since: number) =>
  db
    .selectFrom('sessions')
    .innerJoin('school_sign_ins', 'school_sign_ins.session_key', 'sessions.id')
    .select('school_sign_ins.ticket_hash')
    .where('sessions.revoked_at', '>', since)
    .limit(BATCH);

type Picked = ReturnType<typeof endedSessionsQuery>;

/**
 * Deletes the sessions `pick` finds, a batch a transaction, with their school sign-ins (one commit:
 * a sign-in never outlives its session) and, by the cascade, their refresh tokens.
 */
const deleteSessions = async (db: Db, pick: (db: Db) => Picked) => {
  const deleted = { sessions: 0, schoolSignIns: 0 };
  for (;;) {
    const batch = await db.transaction().execute(async (tx) => {
      const ids = (await pick(tx).execute()).map((row) => row.id);
      if (ids.length === 0) return { ids: 0, sessions: 0, signIns: 0 };
      const signIns = await tx.deleteFrom('school_sign_ins').where('session_key', 'in', ids).executeTakeFirst();
      const sessions = await tx.deleteFrom('sessions').where('id', 'in', ids).executeTakeFirst();
      return { ids: ids.length, sessions: Number(sessions.numDeletedRows), signIns: Number(signIns.numDeletedRows) };
    });
    deleted.sessions += batch.sessions;
    deleted.schoolSignIns += batch.signIns;
    if (batch.ids < BATCH) return deleted;
  }
};

/**
 * Sessions ended long enough ago, sessions past their absolute age, and school sign-ins of sessions
 * ended since `endedSince` (older ones went with their sessions, or go with them); answers how many
 * of each.
 */
export const deleteSweptSessions = async (db: Db, cutoffs: SessionCutoffs) => {
  const ended = await deleteSessions(db, (tx) => endedSessionsQuery(tx, cutoffs.endedBefore));
  const aged = await deleteSessions(db, (tx) => begunSessionsQuery(tx, cutoffs.begunBefore));
  const signIns = await inBatches(BATCH, () =>
    db
      .deleteFrom('school_sign_ins')
      .where('ticket_hash', 'in', endedSignInsQuery(db, cutoffs.endedSince))
      .executeTakeFirst(),
  );
  return {
    sessions: ended.sessions,
    sessionsPastMaxAge: aged.sessions,
    schoolSignIns: ended.schoolSignIns + aged.schoolSignIns + signIns,
  };
};

/** Deletes account rows that can no longer be used: the hourly sweep of services/platform/housekeeping.ts. */
import type { DeleteResult, Kysely } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

/** Rows one statement deletes at most, so a large backlog never holds SQLite's write lock for long. */
const BATCH = 5_000;

/** Runs `deleteBatch` (at most BATCH rows each) until a batch comes back short; answers the total. */
const inBatches = async (deleteBatch: () => Promise<DeleteResult>): Promise<number> => {
  let total = 0;
  for (;;) {
    const deleted = Number((await deleteBatch()).numDeletedRows);
    total += deleted;
    if (deleted < BATCH) return total;
  }
};

export interface ExpiryCutoffs {
  now: number;
  /** Sessions ended before this go, with their refresh tokens: their history is no longer shown. */
  endedSessionsBefore: number;
  /** Dev-outbox messages sent before this go: the codes in them expired long ago. */
  outboxBefore: number;
}

export const deleteExpiredAccountRows = async (db: Db, { now, endedSessionsBefore, outboxBefore }: ExpiryCutoffs) => {
  const refreshTokens = await inBatches(() =>
    db
      .deleteFrom('refresh_tokens')
      .where(
        'token_hash',
        'in',
        db.selectFrom('refresh_tokens').select('token_hash').where('expires_at', '<=', now).limit(BATCH),
      )
      .executeTakeFirst(),
  );
  const sessions = await inBatches(() =>
    db
      .deleteFrom('sessions')
      .where(
        'id',
        'in',
        db.selectFrom('sessions').select('id').where('revoked_at', '<=', endedSessionsBefore).limit(BATCH),
      )
      .executeTakeFirst(),
  );
  const tickets = await inBatches(() =>
    db
      .deleteFrom('tickets')
      .where('id_hash', 'in', db.selectFrom('tickets').select('id_hash').where('expires_at', '<=', now).limit(BATCH))
      .executeTakeFirst(),
  );
  const outbox = await inBatches(() =>
    db
      .deleteFrom('outbox')
      .where('id', 'in', db.selectFrom('outbox').select('id').where('sent_at', '<', outboxBefore).limit(BATCH))
      .executeTakeFirst(),
  );
  // One row per phone or e-mail and purpose, and per rate-limit key: small enough for one statement.
  const codes = await db.deleteFrom('codes').where('expires_at', '<=', now).executeTakeFirst();
  const counters = await db.deleteFrom('counters').where('expires_at', '<=', now).executeTakeFirst();
  return {
    refreshTokens,
    sessions,
    tickets,
    outbox,
    codes: Number(codes.numDeletedRows),
    counters: Number(counters.numDeletedRows),
  };
};

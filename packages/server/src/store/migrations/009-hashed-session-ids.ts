import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

interface Tables {
  sessions: {
    id: string;
    user_id: number;
    method: string;
    ip: string;
    user_agent: string;
    created_at: number;
    revoked_at: number | null;
  };
  refresh_tokens: { session_id: string };
}

/** A session id as stored before this migration: a v4 UUID. */
const PLAIN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Session ids are stored hashed (store/sessions/sessions.ts `sessionKey`, the same hash): each session moves
 * to its key, its refresh tokens with it. Tokens that carry the id keep working (it is hashed on
 * use); refresh tokens from before, which carry none, continue in a copy of their session.
 */
export const up = async (unknownDb: Kysely<unknown>): Promise<void> => {
  const db = unknownDb as Kysely<Tables>;
  const key = (id: string) => createHash('sha256').update(`session:${id}`).digest('base64url');
  // Keys are 43 characters long, ids 36.
  const rows = (await db.selectFrom('sessions').selectAll().where(sql`length(id)`, '=', 36).execute()).filter((row) =>
    PLAIN_ID.test(row.id),
  );
  for (const row of rows) {
    // The new row first, then its refresh tokens, then the old row: the foreign key holds throughout.
    await db
      .insertInto('sessions')
      .values({ ...row, id: key(row.id) })
      .execute();
    await db
      .updateTable('refresh_tokens')
      .set({ session_id: key(row.id) })
      .where('session_id', '=', row.id)
      .execute();
    await db.deleteFrom('sessions').where('id', '=', row.id).execute();
  }
};

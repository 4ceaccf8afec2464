/**
 * Refresh tokens: each stored under a hash of itself, beside the key of the session it belongs to
 * (sessions.ts); a refresh stores the token's successor, and a token read answers when it was rotated.
 */
import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

// Every token refresh runs these two: compiled once (store/compiled-query.ts). A sign-in stores its
// session's first token with the session (sessions.ts `insertSession`).
export const refreshTokenInsert = compiledOnce(
  (db, tokenHash: string, sessionKey: string, createdAt: number, expiresAt: number) =>
    db
      .insertInto('refresh_tokens')
      .values({
        token_hash: tokenHash,
        session_id: sessionKey,
        created_at: createdAt,
        expires_at: expiresAt,
      })
      .onConflict((oc) => oc.column('token_hash').doNothing()),
  ['', '', 0, 0],
);

/**
 * Stores a refresh token (`session_id` is the session's key); one stored before under the same hash
 * stays as it is, so two refreshes racing with one token store its successor once.
 */
export const insertRefreshToken = async (db: Db, row: Database['refresh_tokens']) => {
  await refreshTokenInsert(db, row.token_hash, row.session_id, row.created_at, row.expires_at);
};

const refreshTokenQuery = compiledOnce(
  (db, successorHash: string, tokenHash: string) =>
    db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('refresh_tokens as successor', (join) => join.on('successor.token_hash', '=', successorHash))
      .select([
        'refresh_tokens.session_id',
        'refresh_tokens.expires_at',
        'successor.created_at as rotated_at',
        'sessions.user_id',
        'sessions.revoked_at',
        'sessions.created_at as session_created_at',
        'sessions.pid',
        'users.blocked_at',
      ])
      .where('refresh_tokens.token_hash', '=', tokenHash),
  ['', ''],
);

/**
 * A refresh token with its session, whether the session's user is blocked, and when it was rotated:
 * when its successor (`successorHash`) was stored, or null while it has none.
 */
export const findRefreshToken = async (db: Db, tokenHash: string, successorHash: string) =>
  (await refreshTokenQuery(db, successorHash, tokenHash)).rows[0];

/**
 * A user's sessions as the devices they are: the live ones with their last token refresh, and ending
 * one of them by its stored key (the only name of a session the owner is shown).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface DeviceRow {
  id: string;
  method: string;
  ip: string;
  user_agent: string;
  created_at: number;
  /** The newest refresh token's issue time; null when the session never refreshed. */
  refreshed_at: number | null;
  /** When the newest refresh token of the session expires; null without one. */
  refresh_expires_at: number | null;
}

/** The user's sessions not ended, each with its newest refresh. */
export const liveDevices = async (db: Db, userId: number): Promise<DeviceRow[]> => {
  const rows = await db
    .selectFrom('sessions')
    .leftJoin('refresh_tokens', 'refresh_tokens.session_id', 'sessions.id')
    .select((eb) => [
      'sessions.id',
      'sessions.method',
      'sessions.ip',
      'sessions.user_agent',
      'sessions.created_at',
      eb.fn.max('refresh_tokens.created_at').as('refreshed_at'),
      eb.fn.max('refresh_tokens.expires_at').as('refresh_expires_at'),
    ])
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .groupBy(['sessions.id', 'sessions.method', 'sessions.ip', 'sessions.user_agent', 'sessions.created_at'])
    .execute();
  // PostgreSQL answers bigint columns and aggregates as strings.
  const ms = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    id: row.id,
    method: row.method,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: Number(row.created_at),
    refreshed_at: ms(row.refreshed_at),
    refresh_expires_at: ms(row.refresh_expires_at),
  }));
};

/** Whether the user owns the session stored under `key`, and whether it is still live. */
export const ownedSession = async (db: Db, userId: number, key: string) => {
  const row = await db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('id', '=', key)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row === undefined ? undefined : { live: row.revoked_at === null };
};

/** Ends the user's session stored under `key`; true only for the one caller that ended it. */
export const revokeOwnedSession = async (db: Db, userId: number, key: string, now: number): Promise<boolean> => {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', key)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

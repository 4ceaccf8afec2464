/**
 * Ending sessions, however they end (signed out, ended by their owner from another device, after a
 * password or phone change, by an operator): the sessions are marked ended and, when any was, one
 * `session.ended` event records it in the same transaction, with the applications' grants and tokens
 * standing on them (services/identity/application-sessions.ts); after the commit the sessions
 * remembered in memory are forgotten, so their access tokens stop at once.
 */

import type { Kysely } from 'kysely';
import type { Context } from '../../context.ts';
import type { Database } from '../../store/schema.ts';
import { endApplicationSessions } from '../identity/application-sessions.ts';
import { inTransaction, recordEvent } from '../webhooks/events.ts';

/** How many sessions `revoke` ended (an update's row count), or whether it ended one. */
type Revoke = (db: Kysely<Database>, now: number) => Promise<{ numUpdatedRows: bigint } | boolean>;

const endedAny = (result: { numUpdatedRows: bigint } | boolean) =>
  typeof result === 'boolean' ? result : result.numUpdatedRows > 0n;

/**
 * In `tx`: runs `revoke` and, when it ended any session, records one `session.ended` event with
 * `data` and ends the applications' sign-ins (grants, access and refresh tokens) that stood on the
 * sessions ended.
 */
export const revokeAndRecord = async (
  tx: Context,
  user: { id: number; pid: string },
  revoke: Revoke,
  data: Record<string, unknown>,
) => {
  if (!endedAny(await revoke(tx.db, tx.now()))) return;
  await recordEvent(tx, { type: 'session.ended', userId: user.id, product: user.pid, data });
  await endApplicationSessions(tx, user.id);
};

/**
 * `revokeAndRecord` in a transaction (its own, or the one `ctx` is in), then forgets the remembered
 * sessions: the one `sessionId` names, or else all of the user's.
 */
export const endSessions = async (
  ctx: Context,
  user: { id: number; pid: string },
  revoke: Revoke,
  data: Record<string, unknown>,
  sessionId?: string,
) => {
  try {
    await inTransaction(ctx, (tx) => revokeAndRecord(tx, user, revoke, data));
  } finally {
    if (sessionId === undefined) ctx.sessions.forgetUser(user.id);
    else ctx.sessions.forgetSession(sessionId);
  }
};

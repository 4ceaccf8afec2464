import {
  type DeletionScheduled,
  deleteAccountRoute,
  isRecord,
  keepAccountRoute,
  type LoginResult,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall, type PlainCall } from '../call.ts';
import { isAuthError } from '../errors.ts';
import { signIn, signOut } from '../shapes.ts';
import { withToken } from '../with-token.ts';

export type { DeletionScheduled } from '@edupass/protocol';

/**
 * Deletes the signed-in user's account: sign-in methods, sessions, second factors and signed
 * agreements go, and sites hear of it by the `user.deleted` webhook. Where the server keeps a grace
 * period the account is frozen first and erased when it ends; a sign-in meanwhile fails with
 * ACCOUNT_DELETING (read it with `deletionScheduledOf`, keep the account with `keepAccount`). The
 * server asks for a recent proof first (STEP_UP_REQUIRED: prove with `@edupass/account/step-up`, then
 * call again). Signs this client out.
 */
export const deleteAccount: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, deleteAccountRoute, signOut);

/**
 * The ticket that keeps an account waiting to be deleted, and when it will be erased, from the error a
 * sign-in to it failed with (ACCOUNT_DELETING, 74); undefined for any other error.
 */
export const deletionScheduledOf = (error: unknown): DeletionScheduled | undefined => {
  const body = isAuthError(error) && error.name === 'ACCOUNT_DELETING' ? error.body : undefined;
  if (!isRecord(body) || typeof body.deletion_ticket !== 'string' || typeof body.erase_at !== 'number')
    return undefined;
  return { deletion_ticket: body.deletion_ticket, erase_at: body.erase_at };
};

/** Keeps the account (its deletion is cancelled) and finishes the sign-in the ticket came from (tokens kept). */
export const keepAccount: Call<{ deletion_ticket: string }, LoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  keepAccountRoute,
  signIn,
);

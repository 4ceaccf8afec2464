/**
 * What every login-like call ends with: a session, its tokens in the form the client asked for,
 * and the `{user_info, auth}` answer.
 */
import { DEFAULT_AGREEMENT_IDS, type LoginResult } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { findAgreements } from '../../store/account/agreements.ts';
import { type AccountStanding, accountStanding } from '../../store/account/standing.ts';
import type { User } from '../../store/schema.ts';
import { signRecorded } from '../account/agreement-signatures.ts';
import { refuseWhileErasing } from '../account/deletion-gate.ts';
import { authInfo, userInfo } from '../account/views.ts';
import { OPERATOR_ROLE } from '../admin/operators.ts';
import { isStaff, staffPasswordExpired } from '../passwords/staff-policy.ts';
import { requireSecondStep } from '../second-factor/second-factor.ts';
import { securityEvent } from '../security/events.ts';
import { type ClientInfo, issueSessionToken, startSession, tokenSet } from '../sessions/tokens.ts';
import { inTransaction } from '../webhooks/events.ts';

export interface SignInRequest extends ClientInfo {
  /** The request carried `Auth-Version`: answer with the token set. */
  wantsTokenSet: boolean;
  /** The product signed in to, where a product's second-factor rule applies (the password step). */
  pid?: string | undefined;
  /** The second factor was proved (or a passkey did both steps): no second step is asked. */
  secondStepDone?: boolean | undefined;
}

export interface SignedIn {
  result: LoginResult;
  /** The `authorization` cookie: the access token, and how long it lives. */
  cookie: { token: string; maxAge: number };
}

/** Agreement ids a client chose, without the "none chosen" marker; unknown ids are refused. */
export const chosenAgreements = async (ctx: Context, ids: number[] | undefined): Promise<number[]> => {
  const chosen = [...new Set((ids ?? DEFAULT_AGREEMENT_IDS).filter((id) => id !== -1))];
  if (chosen.length === 0) return [];
  const found = await findAgreements(ctx.db, chosen);
  const missing = chosen.find((id) => !found.some((a) => a.id === id));
  if (missing !== undefined) throw invalidRequest(`Unknown agreement id ${missing}.`);
  return chosen;
};

export const signIn = async (
  ctx: Context,
  user: User,
  method: string,
  request: SignInRequest,
  agreementIds: number[] = [],
  /** The account's standing, when the caller read it already (a password sign-in does). */
  known?: AccountStanding,
): Promise<SignedIn> => {
  if (user.blocked_at !== null) fail('AC3_44');
  const standing = known ?? (await accountStanding(ctx.db, user.id));
  if (!request.secondStepDone) await requireSecondStep(ctx, user, { method, agreementIds }, request.pid, standing);
  await refuseWhileErasing(ctx, user, {
    method,
    agreement_ids: agreementIds,
    pid: request.pid,
    second_step_done: request.secondStepDone === true,
  });
  // A staff session has an idle time-out (sessions/idle.ts) and, past the password's interval, may only change it.
  const staff = await isStaff(ctx, user, standing);
  const expired = staff && staffPasswordExpired(ctx, user);
  // A token set's refresh chain is stored with its session: one commit for both, and with the
  // agreements signed at the sign-in when there are any (without, the session alone needs no BEGIN
  // and COMMIT around it: startSession).
  const start = (tx: Context) =>
    startSession(tx, user, method, request, {
      secondFactor: request.secondStepDone === true,
      staff,
      refreshChain: request.wantsTokenSet === true,
    });
  const { ref, refreshToken } =
    agreementIds.length === 0
      ? await start(ctx)
      : await inTransaction(ctx, async (tx) => {
          await signRecorded(tx, user.id, agreementIds, user.pid);
          return start(tx);
        });
  if (user.role === OPERATOR_ROLE) {
    securityEvent(ctx, { event: 'operator_sign_in', userId: user.id, ip: request.ip, reason: method });
  }
  const due = expired ? { password_expired: true } : {};
  if (refreshToken !== null) {
    const set = await tokenSet(ctx, ref, refreshToken);
    return {
      result: { user_info: userInfo(user), auth: authInfo(user, set), ...due },
      cookie: { token: set.access.token, maxAge: set.access.expires_in },
    };
  }
  const token = await issueSessionToken(ctx, ref);
  return {
    result: { user_info: userInfo(user), auth: authInfo(user, token), ...due },
    cookie: { token, maxAge: ctx.config.sessionTokenTtlSeconds },
  };
};

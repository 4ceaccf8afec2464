/** The operator role: who may use the console and the admin API, and the record of what they did. */
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { sessionPassedSecondFactor } from '../../store/sessions/sessions.ts';
import { hasSecondFactor } from '../second-factor/second-factor.ts';
import { authenticate, type SignedInSession } from '../sessions/tokens.ts';

export const OPERATOR_ROLE = 'operator';

/** A live session of a user with the operator role; E_4 for anyone else. */
export const authenticateOperator = async (ctx: Context, token: string): Promise<SignedInSession> => {
  const session = await authenticate(ctx, token);
  if (session.user.role !== OPERATOR_ROLE) fail('E_4');
  // The console's power behind a password alone is what OPERATOR_MFA=required rules out: until the
  // operator sets up a second factor (account routes, open to this session), the admin API says so.
  // The session itself must have passed it — at its sign-in, by setting the factor up, or by a proof
  // since: a session opened with the password before the factor existed does not gain the console.
  if (ctx.config.operatorMfa === 'required' && !(await sessionPassedSecondFactor(ctx.db, session.sessionId))) {
    if (!(await hasSecondFactor(ctx, session.userId))) fail('E_14');
    fail('E_14', 'Prove your second factor in this session (or sign in again with it) to use the console.');
  }
  return session;
};

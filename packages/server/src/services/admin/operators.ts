/** The operator role: who may use the console and the admin API, and the record of what they did. */
import { dutiesOf, type OperatorDuty, type OperatorRouteName, ROUTE_DUTIES } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { sessionPassedSecondFactor } from '../../store/sessions/sessions.ts';
import { hasSecondFactor } from '../second-factor/second-factor.ts';
import { authenticate, type SignedInSession } from '../sessions/tokens.ts';

export const OPERATOR_ROLE = 'operator';

/** What a new operator may do: everything but the audit log, which an auditor reads (migration 052). */
export const FIRST_OPERATOR_DUTIES: readonly OperatorDuty[] = ['system', 'security'];

/**
 * A live session of a user with the operator role whose duties include one the route `name` needs
 * (protocol's operator-duties.ts); E_4 for anyone else, naming the duty missing.
 */
export const authenticateOperator = async (
  ctx: Context,
  token: string,
  name: OperatorRouteName,
): Promise<SignedInSession> => {
  const session = await authenticate(ctx, token);
  if (session.user.role !== OPERATOR_ROLE) fail('E_4');
  const needed = ROUTE_DUTIES[name];
  const held = dutiesOf(session.user.operator_duties);
  if (!needed.some((duty) => held.includes(duty))) {
    fail('E_4', `This needs the ${needed.join(' or ')} duty; yours: ${held.join(', ') || 'none'}.`);
  }
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

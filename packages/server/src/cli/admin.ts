import { checks, OPERATOR_DUTIES, type OperatorDuty } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import { saveUser } from '../services/account/users.ts';
import { FIRST_OPERATOR_DUTIES, OPERATOR_ROLE } from '../services/admin/operators.ts';
import { staffPasswordProblem } from '../services/passwords/staff-policy.ts';
import { createUser, newUser, passwordFields } from '../services/sign-in/sign-up.ts';
import { findUserByPhone } from '../store/account/users.ts';

/** `--duties system,security` read: each word one of OPERATOR_DUTIES; undefined when not given. */
export const parseDuties = (raw: string | undefined): OperatorDuty[] | undefined => {
  if (raw === undefined) return undefined;
  const words = raw.split(',').map((word) => word.trim());
  const unknown = words.filter((word) => !(OPERATOR_DUTIES as readonly string[]).includes(word));
  if (unknown.length > 0 || words.length === 0) {
    throw new Error(`--duties takes ${OPERATOR_DUTIES.join(', ')} (comma-separated); not ${unknown.join(', ')}.`);
  }
  return OPERATOR_DUTIES.filter((duty) => words.includes(duty));
};

/**
 * Makes the account of `phone` an operator, creating it (with `password`) when it does not exist.
 * `duties`: what it may do (protocol's operator-duties.ts); a new operator gets system and security,
 * and an existing one keeps theirs unless given.
 */
export const createAdmin = async (
  ctx: Context,
  phone: string,
  password: string | undefined,
  duties?: readonly OperatorDuty[],
): Promise<string> => {
  const phoneProblem = checks.phone_number(phone);
  if (phoneProblem) throw new Error(`${phoneProblem.message} Give a mainland mobile number, e.g. 13800138000.`);
  const existing = await findUserByPhone(ctx.db, phone);
  if (existing) {
    const kept = existing.role === OPERATOR_ROLE && existing.operator_duties !== null ? existing.operator_duties : null;
    const given = (duties ?? FIRST_OPERATOR_DUTIES).join(',');
    const operatorDuties = duties === undefined && kept !== null ? kept : given;
    await saveUser(ctx, existing.id, { role: OPERATOR_ROLE, operator_duties: operatorDuties, updated_at: ctx.now() });
    return `User ${existing.id} (${phone}) is now an operator: ${operatorDuties}.`;
  }
  if (!password) throw new Error(`No account has ${phone}. Give --password to create one.`);
  const passwordProblem = checks.password(password);
  if (passwordProblem) throw new Error(`${passwordProblem.message} Use 6 to 20 letters, digits or symbols.`);
  const staffProblem = staffPasswordProblem(ctx, password);
  if (staffProblem) throw new Error(`${staffProblem} (STAFF_PASSWORD_MIN_LENGTH, STAFF_PASSWORD_CLASSES)`);
  const pid = Object.keys(ctx.config.products)[0] ?? 'edupass';
  const user = await createUser(
    ctx,
    newUser(ctx, {
      pid,
      phone,
      role: OPERATOR_ROLE,
      operator_duties: (duties ?? FIRST_OPERATOR_DUTIES).join(','),
      ...(await passwordFields(ctx, password)),
    }),
    'cli_admin',
    new ApiError('AC3_0'),
  );
  return `Created operator ${user.id} (${phone}): ${(duties ?? FIRST_OPERATOR_DUTIES).join(',')}.`;
};

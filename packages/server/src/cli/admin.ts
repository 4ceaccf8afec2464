import { checks } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import { saveUser } from '../services/account/users.ts';
import { OPERATOR_ROLE } from '../services/admin/operators.ts';
import { createUser, newUser, passwordFields } from '../services/sign-in/sign-up.ts';
import { findUserByPhone } from '../store/account/users.ts';

/** Makes the account of `phone` an operator, creating it (with `password`) when it does not exist. */
export const createAdmin = async (ctx: Context, phone: string, password: string | undefined): Promise<string> => {
  const phoneProblem = checks.phone_number(phone);
  if (phoneProblem) throw new Error(`${phoneProblem.message} Give a mainland mobile number, e.g. 13800138000.`);
  const existing = await findUserByPhone(ctx.db, phone);
  if (existing) {
    await saveUser(ctx, existing.id, { role: OPERATOR_ROLE, updated_at: ctx.now() });
    return `User ${existing.id} (${phone}) is now an operator.`;
  }
  if (!password) throw new Error(`No account has ${phone}. Give --password to create one.`);
  const passwordProblem = checks.password(password);
  if (passwordProblem) throw new Error(`${passwordProblem.message} Use 6 to 20 letters, digits or symbols.`);
  const pid = Object.keys(ctx.config.products)[0] ?? 'edupass';
  const user = await createUser(
    ctx,
    newUser(ctx, { pid, phone, role: OPERATOR_ROLE, ...(await passwordFields(ctx, password)) }),
    'cli_admin',
    new ApiError('AC3_0'),
  );
  return `Created operator ${user.id} (${phone}).`;
};

/**
 * One-time codes by SMS, voice and e-mail: 6 digits, stored keyed-hashed, short-lived, limited
 * guesses, single use. Every send is rate limited; a code that could not be delivered is withdrawn.
 */
import { randomInt } from 'node:crypto';
import { codeSms } from '../../adapters/code-texts.ts';
import type { Channel } from '../../adapters/delivery.ts';
import { DeliveryError } from '../../adapters/delivery-error.ts';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import { consumeCode, countAttempt, deleteCode, putCode } from '../../store/account/codes.ts';
import { hmac, safeEqual } from '../security/hashing.ts';
import { limitCodeSend, releaseResendWait } from '../security/rate-limits.ts';

/** What a code is for; a code sent for one scene never works for another. */
export type Scene =
  | 'register'
  | 'login'
  | 'silence'
  | 'bind'
  | 'change'
  | 'password_update'
  | 'reset'
  | 'common'
  | 'oauth'
  | 'email_register'
  | 'email_reset'
  | 'email_login'
  | 'email_bind'
  | 'step_up';

const codeHash = (ctx: Context, target: string, scene: Scene, code: string) =>
  hmac(ctx.keys.codes, `${scene}:${target}:${code}`);

export interface SendCodeInput {
  target: string;
  scene: Scene;
  channel: Channel;
  ip: string;
}

/** Stores a new code for `target` and `scene` (replacing any earlier one); answers the code. */
export const storeCode = async (ctx: Context, target: string, scene: Scene): Promise<string> => {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  await putCode(ctx.db, {
    target,
    scene,
    code_hash: codeHash(ctx, target, scene, code),
    expires_at: now + ctx.config.codeTtlSeconds * 1000,
    attempts: 0,
    created_at: now,
  });
  return code;
};

/** Delivers a stored code; one that cannot be delivered (twice) is withdrawn, with E_6. */
export const deliverCode = async (ctx: Context, { target, scene, channel }: SendCodeInput, code: string) => {
  const message = {
    to: target,
    channel,
    scene,
    code,
    text: codeSms(ctx.config.site.name, scene, code, Math.ceil(ctx.config.codeTtlSeconds / 60)),
  };
  try {
    await ctx.delivery.send(message).catch(() => ctx.delivery.send(message));
  } catch (error) {
    await deleteCode(ctx.db, target, scene);
    await releaseResendWait(ctx, target, scene);
    ctx.logger.error({ to: target, channel, err: error }, 'code delivery failed twice; code withdrawn');
    // The provider's refusal, in words the user can act on (the number, a limit, the operator).
    throw new ApiError('E_6', error instanceof DeliveryError ? error.message : undefined);
  }
};

/** `counted`: the caller already counted this send against the limits (before its preconditions). */
export const sendCode = async (ctx: Context, input: SendCodeInput, { counted = false } = {}): Promise<void> => {
  if (!counted) await limitCodeSend(ctx, input.target, input.scene, input.ip);
  await deliverCode(ctx, input, await storeCode(ctx, input.target, input.scene));
};

/** Counts a guess and checks it; the code's hash when right, AC3_13 when wrong, expired, spent or guessed too often. */
const checkCode = async (ctx: Context, target: string, scene: Scene, code: string): Promise<string> => {
  // One statement: the guess counted and the code read as counted (an expired one's count is moot).
  const row = await countAttempt(ctx.db, target, scene);
  if (!row || row.expires_at <= ctx.now()) return fail('AC3_13');
  const { attempts } = row;
  const hash = codeHash(ctx, target, scene, code);
  if (attempts > ctx.config.codeMaxAttempts) {
    await deleteCode(ctx.db, target, scene);
    return fail('AC3_13');
  }
  if (!safeEqual(row.code_hash, hash)) {
    if (attempts >= ctx.config.codeMaxAttempts) await deleteCode(ctx.db, target, scene);
    return fail('AC3_13');
  }
  return hash;
};

/** Checks and spends a code; AC3_13 when it is wrong, expired, spent or guessed too often. */
export const verifyCode = async (ctx: Context, target: string, scene: Scene, code: string): Promise<void> => {
  const hash = await checkCode(ctx, target, scene, code);
  if (!(await consumeCode(ctx.db, target, scene, hash))) fail('AC3_13');
};

/**
 * Checks a code, runs `use`, and spends the code only when `use` succeeded. For actions a unique
 * constraint settles (sign-up): of two parallel calls with one code, the constraint picks the winner
 * and `use` says why the other lost (AC3_0), where spending first would answer a misleading AC3_13.
 */
export const useCode = async <T>(
  ctx: Context,
  target: string,
  scene: Scene,
  code: string,
  use: () => Promise<T>,
): Promise<T> => {
  const hash = await checkCode(ctx, target, scene, code);
  const result = await use();
  await consumeCode(ctx.db, target, scene, hash);
  return result;
};

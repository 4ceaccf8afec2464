/**
 * Code sends by purpose: each checks what must hold for its purpose before anything is sent, so a
 * code is never sent that could not be used. The captcha gate comes first, then the send limits:
 * an answer that a precondition failed ("not registered", "already registered", "blocked") tells as
 * much as a sent code, so it counts against the same per-IP and per-identity limits.
 */
import type { Context } from '../../context.ts';
import { ApiError, fail, invalidRequest } from '../../errors.ts';
import { findUserByEmail, findUserByPhone } from '../../store/account/users.ts';
import type { User } from '../../store/schema.ts';
import { assertEmailFreeFor } from '../account/email.ts';
import { assertNotBlocked } from '../account/users.ts';
import { requireHuman } from '../captcha/gate.ts';
import { requireProduct } from '../platform/products.ts';
import { countIdentityRefusal, limitCodeSend, releaseResendWait } from '../security/rate-limits.ts';
import { deliverCode, type Scene, sendCode, storeCode } from './one-time-codes.ts';
import { finishAfterAnswer } from './sends-after-answer.ts';

export interface CodeRequest {
  target: string;
  pid?: string | undefined;
  ip: string;
  captchaTicket?: string | undefined;
  /** The signed-in user, for the purposes that need one. */
  user?: User;
  /** rebind: the number the user says is bound now. */
  oldPhone?: string;
}

const phoneOwnedByOther = async (ctx: Context, phone: string, user: User) => {
  const owner = await findUserByPhone(ctx.db, phone);
  return owner !== undefined && owner.id !== user.id;
};

const signedIn = (request: CodeRequest): User => request.user ?? fail('E_0');

/** Preconditions of each purpose, run before the send. */
const preconditions: Record<Exclude<Scene, 'oauth'>, (ctx: Context, r: CodeRequest) => Promise<void>> = {
  async register(ctx, r) {
    if (await findUserByPhone(ctx.db, r.target)) fail('AC3_0');
  },
  async login(ctx, r) {
    const user = await findUserByPhone(ctx.db, r.target);
    if (!user) fail('AC3_1');
    assertNotBlocked(user);
  },
  async silence(ctx, r) {
    assertNotBlocked(await findUserByPhone(ctx.db, r.target));
  },
  async reset(ctx, r) {
    const user = await findUserByPhone(ctx.db, r.target);
    if (!user) fail('AC3_1');
    assertNotBlocked(user);
  },
  async common() {},
  async bind(ctx, r) {
    const user = signedIn(r);
    if (user.phone) fail('AC3_14');
    if (await phoneOwnedByOther(ctx, r.target, user)) fail('AC3_26');
  },
  async change(ctx, r) {
    const user = signedIn(r);
    if (!user.phone) fail('AC3_7');
    if (r.oldPhone !== user.phone) fail('AC3_15');
    if (r.target === user.phone) fail('AC3_17');
    if (await phoneOwnedByOther(ctx, r.target, user)) fail('AC3_26');
  },
  async password_update(_ctx, r) {
    const user = signedIn(r);
    if (!user.phone) fail('AC3_7');
    if (r.target !== user.phone) fail('AC3_8');
  },
  async step_up(_ctx, r) {
    const user = signedIn(r);
    if (r.target !== user.phone && r.target !== user.email) fail('AC3_8');
  },
  async email_register(ctx, r) {
    if (await findUserByEmail(ctx.db, r.target)) fail('AC3_61');
  },
  async email_reset() {},
  async email_login() {},
  async email_bind(ctx, r) {
    await assertEmailFreeFor(ctx, r.target, signedIn(r));
  },
};

/** Refusals that tell whether a phone or address is registered: counted per IP (rate-limits.ts, risk.ts). */
const TELLS_REGISTRATION: ReadonlySet<string> = new Set(['AC3_0', 'AC3_1', 'AC3_26', 'AC3_61']);

/**
 * An e-mail reset or sign-in code goes to an account's address only, but the answer does not say
 * whether one has it: an unknown address meets the same gate and limits, has a code stored like a
 * known one and hears the same 204 with nothing sent, and its check reads as a wrong code; a known
 * one's code is delivered after the answer (sends-after-answer.ts), so neither does the time to answer. A blocked account gets its code; what
 * the code unlocks refuses it.
 */
const hasAccountByEmail = async (ctx: Context, r: CodeRequest) =>
  (await findUserByEmail(ctx.db, r.target)) !== undefined;
const sendsOnlyToAccounts: Partial<Record<Scene, typeof hasAccountByEmail>> = {
  email_reset: hasAccountByEmail,
  email_login: hasAccountByEmail,
};

export const requestCode = async (
  ctx: Context,
  scene: Exclude<Scene, 'oauth'>,
  request: CodeRequest,
  channel: 'sms' | 'voice' | 'email' = 'sms',
): Promise<void> => {
  if (request.pid !== undefined) await requireProduct(ctx, request.pid);
  await requireHuman(ctx, {
    pid: request.pid,
    scene,
    identity: request.target,
    ip: request.ip,
    ticket: request.captchaTicket,
    action: 'send',
  });
  // An e-mail address is one whatever its spelling: the routes take it in its one spelling already
  // (email-address.ts, through http/parse-fields.ts), an account's own is the one stored. Limited,
  // stored and looked up in lower case.
  const target = channel === 'email' ? request.target.toLowerCase() : request.target;
  await limitCodeSend(ctx, target, scene, request.ip);
  const addressed = { ...request, target };
  try {
    await preconditions[scene](ctx, addressed);
  } catch (error) {
    // Nothing was sent: no resend wait the page would not know of (it offers the send again at once).
    await releaseResendWait(ctx, target, scene);
    if (error instanceof ApiError && TELLS_REGISTRATION.has(error.code)) await countIdentityRefusal(ctx, request.ip);
    throw error;
  }
  const input = { target, scene, channel, ip: request.ip };
  const known = await sendsOnlyToAccounts[scene]?.(ctx, addressed);
  if (known === undefined) return sendCode(ctx, input, { counted: true });
  // Known or not, the same work before the answer: a code stored for the address (one nobody is
  // sent reads as a wrong code at the check). Only an account's address is sent its code, after.
  const code = await storeCode(ctx, target, scene);
  if (known) finishAfterAnswer(ctx, () => deliverCode(ctx, input, code));
};

/** Voice codes: the `type` names the purpose; only the anonymous purposes can be asked by voice. */
const VOICE_SCENES: Record<string, Exclude<Scene, 'oauth'>> = {
  REGISTER: 'register',
  LOGIN: 'login',
  SILENCE: 'silence',
  RESET: 'reset',
  COMMON: 'common',
};

export const requestVoiceCode = (ctx: Context, type: string, request: CodeRequest) => {
  const scene = VOICE_SCENES[type.toUpperCase()];
  if (!scene)
    throw invalidRequest(`Unknown voice code type "${type}". Use one of ${Object.keys(VOICE_SCENES).join(', ')}.`);
  return requestCode(ctx, scene, request, 'voice');
};

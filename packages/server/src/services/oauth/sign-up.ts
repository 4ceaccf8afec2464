/**
 * The step after a third-party sign-in met an unknown identity (spec §7): send a code to a phone
 * (captcha/oauth), then bind that phone's account — or a new account with that phone — to the
 * identity; or create a user of the identity alone. The oauth_ticket is read until the last check
 * passes and spent only then, so a wrong code does not cost the user the sign-in.
 */
import { checks, DEFAULT_AGREEMENT_IDS, type OauthPending } from '@edupass/protocol';
import type { Kysely } from 'kysely';
import type { Channel } from '../../adapters/delivery.ts';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { findUserByNickname, findUserByPhone, insertUser } from '../../store/account/users.ts';
import type { Database, User } from '../../store/schema.ts';
import { assertNotBlocked, proveContact } from '../account/users.ts';
import { maskPhone } from '../account/views.ts';
import { requireHuman } from '../captcha/gate.ts';
import { sendCode, verifyCode } from '../codes/one-time-codes.ts';
import { requireProduct } from '../platform/products.ts';
import { limitCodeSend } from '../security/rate-limits.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from '../sign-in/session-answer.ts';
import { newUser, recordUserCreated } from '../sign-in/sign-up.ts';
import { inTransaction } from '../webhooks/events.ts';
import { assertLinkable, linkIdentity } from './links.ts';
import { type PendingIdentity, readOauthTicket, rememberPhone, spendOauthTicket } from './tickets.ts';

/** The account a phone would bind the identity to (undefined: a new one), once the rules allow it. */
const phoneAccount = async (ctx: Context, pending: PendingIdentity, phone: string): Promise<User | undefined> => {
  const user = await findUserByPhone(ctx.db, phone);
  assertNotBlocked(user);
  await assertLinkable(ctx.db, pending, user);
  return user;
};

export interface OauthCodeRequest {
  phone: string;
  oauthTicket: string;
  pid?: string | undefined;
  ip: string;
  captchaTicket?: string | undefined;
  channel?: Channel;
}

/** captcha/oauth: a code to the phone the identity is to be bound through. */
export const sendOauthBindCode = async (ctx: Context, request: OauthCodeRequest): Promise<void> => {
  if (request.pid !== undefined) await requireProduct(ctx, request.pid);
  const pending = await readOauthTicket(ctx, request.oauthTicket);
  await requireHuman(ctx, {
    pid: request.pid ?? pending.pid,
    scene: 'oauth',
    identity: request.phone,
    ip: request.ip,
    ticket: request.captchaTicket,
    action: 'send',
  });
  // Counted before the checks, as every code send is (code-requests.ts).
  await limitCodeSend(ctx, request.phone, 'oauth', request.ip);
  await phoneAccount(ctx, pending, request.phone);
  await sendCode(
    ctx,
    { target: request.phone, scene: 'oauth', channel: request.channel ?? 'sms', ip: request.ip },
    { counted: true },
  );
  await rememberPhone(ctx, request.oauthTicket, pending, request.phone);
};

export interface OauthBindCheck extends OauthPending {
  provider: string;
  nickname: string;
  avatar_url: string;
  /** The phone the bind code went to, masked; '' before one was sent. */
  phone_number: string;
}

/** GET oauth/third-party: what the ticket holds; `user_exists` once a code went to a registered phone. */
export const checkOauthBind = async (ctx: Context, oauthTicket: string): Promise<OauthBindCheck> => {
  const pending = await readOauthTicket(ctx, oauthTicket);
  return {
    oauth_ticket: oauthTicket,
    user_exists: pending.phone !== undefined && (await findUserByPhone(ctx.db, pending.phone)) !== undefined,
    provider: pending.provider,
    nickname: pending.nickname,
    avatar_url: pending.avatarUrl,
    phone_number: maskPhone(pending.phone ?? null),
  };
};

/** The provider's nickname when it is a valid one nobody has taken; else none (the user picks one later). */
const usableNickname = async (db: Kysely<Database>, nickname: string) =>
  nickname !== '' && checks.nickname(nickname) === null && !(await findUserByNickname(db, nickname)) ? nickname : null;

/** A new user holding the identity (and the phone), both or neither: one transaction. */
const createLinkedUser = (ctx: Context, pending: PendingIdentity, phone: string | null): Promise<User> =>
  inTransaction(ctx, async (tx) => {
    const trx = tx.db;
    const user =
      (await insertUser(
        trx,
        newUser(ctx, {
          pid: pending.pid,
          phone,
          nickname: await usableNickname(trx, pending.nickname),
          avatar_url: pending.avatarUrl,
        }),
      )) ?? fail('AC3_26');
    await linkIdentity(ctx, trx, user.id, pending);
    await recordUserCreated(tx, user, `oauth_${pending.provider}`);
    return user;
  });

export interface OauthUserCreation {
  oauth_ticket: string;
  phone_number?: string | undefined;
  captcha?: string | undefined;
  agreement_ids?: number[] | undefined;
}

/**
 * oauth/third-party: with a code, binds the phone's account (or a new account with that phone) to the
 * identity; without one, creates a user of the identity alone. Signs in either way.
 */
/**
 * An account of the identity alone proves nothing else (no phone, no code), so it is the one path
 * here behind the captcha gate (scene `oauth`, no identity binding); with a phone, the gated code send
 * came first.
 */
export const createOauthUser = async (
  ctx: Context,
  input: OauthUserCreation,
  request: SignInRequest & { captchaTicket: string | undefined },
): Promise<SignedIn> => {
  const pending = await readOauthTicket(ctx, input.oauth_ticket);
  const agreements = await chosenAgreements(
    ctx,
    input.agreement_ids?.some((id) => !DEFAULT_AGREEMENT_IDS.includes(id)) ? input.agreement_ids : pending.agreementIds,
  );
  if (input.phone_number !== undefined && input.captcha === undefined) {
    throw invalidRequest('Send the code that went to phone_number as captcha.');
  }
  const method = `oauth_${pending.provider}`;
  if (input.captcha === undefined) {
    await assertLinkable(ctx.db, pending, undefined);
    await requireHuman(ctx, {
      pid: pending.pid,
      scene: 'oauth',
      identity: '',
      ip: request.ip,
      ticket: request.captchaTicket,
      action: 'signup',
    });
    await spendOauthTicket(ctx, input.oauth_ticket);
    return signIn(ctx, await createLinkedUser(ctx, pending, null), method, request, agreements);
  }
  const phone =
    input.phone_number ?? pending.phone ?? fail('AC3_13', 'No code was sent for this oauth_ticket; send one first.');
  const existing = await phoneAccount(ctx, pending, phone);
  await verifyCode(ctx, phone, 'oauth', input.captcha);
  await spendOauthTicket(ctx, input.oauth_ticket);
  if (!existing) return signIn(ctx, await createLinkedUser(ctx, pending, phone), method, request, agreements);
  await linkIdentity(ctx, ctx.db, existing.id, pending);
  await proveContact(ctx, existing, 'phone');
  return signIn(ctx, existing, method, request, agreements);
};

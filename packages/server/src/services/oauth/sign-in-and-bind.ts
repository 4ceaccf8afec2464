/**
 * WeChat and QQ sign-in and binding (spec §7 "login WeChat/QQ", "bind/unbind WeChat/QQ"). Every code
 * step has passed the browser-bound state check (oauth-state.ts) in the route before it gets here.
 */
import type { OauthPending } from '@edupass/protocol';
import type { OauthProviderName } from '../../adapters/oauth-provider.ts';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { deleteOauthLink, findOauthLink, findUserOauth, userOauths } from '../../store/account/oauths.ts';
import { findUserById, lockUserRow } from '../../store/account/users.ts';
import { noticeAccountChange } from '../account/notices.ts';
import { currentUser } from '../account/users.ts';
import { requireProduct } from '../platform/products.ts';
import { chosenAgreements, type SignedIn, type SignInRequest, signIn } from '../sign-in/session-answer.ts';
import { assertLinkable, keepsAWayIn, linkIdentity } from './links.ts';
import { identify, oauthProvider } from './providers.ts';
import { issueOauthTicket } from './tickets.ts';

export interface OauthCodeStep {
  code: string;
  /** The redirect URI the code was issued to (from the state cookie). */
  redirectUri: string;
}

export interface OauthLogin extends OauthCodeStep {
  pid: string;
  /** WeChat only: the app the client thinks it used; another app's code cannot work here. */
  appid?: string | undefined;
  agreement_ids?: number[] | undefined;
}

export type OauthLoginOutcome = { signedIn: SignedIn } | { pending: OauthPending };

/** A linked identity signs its user in; an unknown one gets an oauth_ticket for the bind-or-create step. */
export const loginWithOauth = async (
  ctx: Context,
  name: OauthProviderName,
  input: OauthLogin,
  request: SignInRequest,
): Promise<OauthLoginOutcome> => {
  await requireProduct(ctx, input.pid);
  const agreements = await chosenAgreements(ctx, input.agreement_ids);
  const provider = oauthProvider(ctx, name);
  if (name === 'wechat' && input.appid !== undefined && input.appid !== '' && input.appid !== ctx.config.wechat.appId) {
    fail('C_2', `WeChat sign-in failed: appid ${input.appid} is not this server's WeChat app.`);
  }
  const identity = await identify(ctx, provider, input.code, input.redirectUri);
  const link = await findOauthLink(ctx.db, name, identity.openid, identity.unionid);
  if (link) {
    const user = (await findUserById(ctx.db, link.user_id)) ?? fail('AC3_3');
    return { signedIn: await signIn(ctx, user, `oauth_${name}`, request, agreements) };
  }
  const oauth_ticket = await issueOauthTicket(ctx, {
    ...identity,
    pid: input.pid,
    agreementIds: agreements,
    phone: undefined,
  });
  return { pending: { oauth_ticket, user_exists: false } };
};

/** Binds the identity behind a code to the signed-in user. Binding the identity already bound is a no-op. */
export const bindOauth = async (ctx: Context, userId: number, name: OauthProviderName, step: OauthCodeStep) => {
  const user = await currentUser(ctx, userId);
  const provider = oauthProvider(ctx, name);
  const own = await findUserOauth(ctx.db, userId, name);
  const identity = await identify(ctx, provider, step.code, step.redirectUri);
  if (own?.openid === identity.openid) return;
  await assertLinkable(ctx.db, identity, user);
  await linkIdentity(ctx, ctx.db, userId, identity);
  await noticeAccountChange(ctx, user, 'oauth_bound');
};

/**
 * Unbinds the user's identity of a kind (nothing bound: nothing to do); the user as it was when
 * something was unbound. AC3_22 when it is the last way
 * in; the user row is locked (PostgreSQL) so two parallel unbinds cannot each leave the other as the last.
 */
export const unbindOauth = (ctx: Context, userId: number, name: OauthProviderName) =>
  ctx.db.transaction().execute(async (trx) => {
    if (ctx.store.dialect === 'postgres') await lockUserRow(trx, userId);
    const user = (await findUserById(trx, userId)) ?? fail('E_0');
    const links = await userOauths(trx, userId);
    if (!links.some((link) => link.provider === name)) return undefined;
    if (!keepsAWayIn(user, links, name)) fail('AC3_22');
    await deleteOauthLink(trx, userId, name);
    return user;
  });

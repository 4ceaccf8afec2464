/**
 * The answer of every route that signs the caller in (password, codes, passkeys, WeChat and QQ, a
 * school's sign-in by phone, a login card): the `authorization` cookie set, and `{user_info, auth}`;
 * with `redirect_to` where the sign-in named the product sign-in it was made for and completed it.
 */
import { INTERACTION_PARAM, type RouteName } from '@edupass/protocol';
import type { FastifyReply } from 'fastify';
import type { Context } from '../context.ts';
import { type BrowserCall, completeWithSignIn } from '../oidc/interactions.ts';
import { currentProvider } from '../oidc/mount.ts';
import type { SignedIn, SignInRequest } from '../services/sign-in/session-answer.ts';
import { setAuthCookie } from './request-info.ts';
import type { RouteInput } from './route-kit.ts';

/** Sets the `authorization` cookie and answers `{user_info, auth}`. */
export const answerSignIn = (ctx: Context, reply: FastifyReply, signedIn: SignedIn) => {
  setAuthCookie(reply, ctx.config, signedIn.cookie.token, signedIn.cookie.maxAge);
  return signedIn.result;
};

/**
 * As `answerSignIn`, and where the body names a first-party product's sign-in this browser waits on
 * (`interaction`: the sign-ins of the web client's own screens, by password, SMS or e-mail code, second
 * factor, passkey, login card, or on the return from WeChat or QQ), that sign-in completed with this
 * one as the web client's return would complete it, and `redirect_to` answered: where the browser goes
 * on to.
 * Anything more to ask of the user (agreements, a third-party application's consent, the password a
 * school asks a pupil to choose), another browser's interaction or one gone leaves the sign-in as it
 * is, without `redirect_to` (oidc/interactions.ts `completeWithSignIn`).
 */
export const answerSignInFor = async <N extends RouteName>(ctx: Context, input: RouteInput<N>, signedIn: SignedIn) => {
  const answer = answerSignIn(ctx, input.reply, signedIn);
  const uid = (input.body as { interaction?: string } | undefined)?.interaction;
  if (uid === undefined) return answer;
  const call = { request: input.request, reply: input.reply };
  const redirectTo = await completeWithSignIn(ctx, currentProvider(ctx), call, uid, signedIn.cookie.token);
  return redirectTo === undefined ? answer : { ...answer, redirect_to: redirectTo };
};

/**
 * Where a browser signed in on its return from a sign-in that left the site (a school's CAS, SAML or
 * OpenID Connect system, DingTalk, WeCom) goes on to: when the return address names the first-party
 * product's sign-in its tab waits on (`?interaction=`, which the web client adds to the address it
 * starts with), that sign-in completed as `answerSignInFor` completes it, and the product's address:
 * the browser goes straight on, without loading the web client to complete it. Otherwise, or when
 * anything is left to ask (agreements, consent, a password to choose) or the interaction is not this
 * browser's (its cookie did not come with the return, as on SAML's cross-site post), the return
 * address without it, whose page completes it as after any sign-in (the tab keeps what it waits on).
 */
export const onwardFromReturn = async (ctx: Context, call: BrowserCall, returnAddress: string, token: string) => {
  const back = new URL(returnAddress);
  const uid = back.searchParams.get(INTERACTION_PARAM);
  if (uid === null) return returnAddress;
  back.searchParams.delete(INTERACTION_PARAM);
  return (uid !== '' && (await completeWithSignIn(ctx, currentProvider(ctx), call, uid, token))) || back.href;
};

/** Who signs in: the client, and whether it asked for the token set (`Auth-Version`). */
export const signInRequest = ({ client, wantsTokenSet }: RouteInput<RouteName>): SignInRequest => ({
  ...client,
  wantsTokenSet,
});

/** The handler of a route whose service signs the caller in from the request body. */
export const signInBy =
  <N extends RouteName>(
    ctx: Context,
    service: (ctx: Context, body: RouteInput<N>['body'], request: SignInRequest) => Promise<SignedIn>,
  ) =>
  async (input: RouteInput<N>) =>
    answerSignInFor(ctx, input, await service(ctx, input.body, signInRequest(input)));

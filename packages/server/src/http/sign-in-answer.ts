/**
 * The answer of every route that signs the caller in (password, codes, passkeys, WeChat and QQ, a
 * school's sign-in by phone): the `authorization` cookie set, and `{user_info, auth}`.
 */
import type { RouteName } from '@edupass/protocol';
import type { FastifyReply } from 'fastify';
import type { Context } from '../context.ts';
import type { SignedIn, SignInRequest } from '../services/sign-in/session-answer.ts';
import { setAuthCookie } from './request-info.ts';
import type { RouteInput } from './route-kit.ts';

/** Sets the `authorization` cookie and answers `{user_info, auth}`. */
export const answerSignIn = (ctx: Context, reply: FastifyReply, signedIn: SignedIn) => {
  setAuthCookie(reply, ctx.config, signedIn.cookie.token, signedIn.cookie.maxAge);
  return signedIn.result;
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
    answerSignIn(ctx, input.reply, await service(ctx, input.body, signInRequest(input)));

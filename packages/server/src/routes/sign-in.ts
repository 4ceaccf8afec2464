import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Context } from '../context.ts';
import { clearAuthCookie, setAuthCookie } from '../http/request-info.ts';
import { defineRoute } from '../http/route-kit.ts';
import { guardPasswordLogin } from '../services/captcha-gate.ts';
import { requestCode, requestVoiceCode } from '../services/code-requests.ts';
import { loginByPassword, loginByPhone, loginByPhoneSilently } from '../services/login.ts';
import { sendOauthBindCode } from '../services/oauth-signup.ts';
import type { SignedIn } from '../services/sign-in.ts';
import { endSession } from '../services/tokens.ts';

/** Sets the `authorization` cookie and answers `{user_info, auth}`. */
export const answerSignIn = (ctx: Context, reply: FastifyReply, signedIn: SignedIn) => {
  setAuthCookie(reply, ctx.config, signedIn.cookie.token, signedIn.cookie.maxAge);
  return signedIn.result;
};

export const signInRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'sendLoginCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'login', { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'loginByPhone', async (input) =>
    answerSignIn(
      ctx,
      input.reply,
      await loginByPhone(ctx, input.body, { ...input.client, wantsTokenSet: input.wantsTokenSet }),
    ),
  );
  defineRoute(app, ctx, 'sendSilentLoginCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'silence', { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'loginByPhoneSilently', async (input) =>
    answerSignIn(
      ctx,
      input.reply,
      await loginByPhoneSilently(ctx, input.body, { ...input.client, wantsTokenSet: input.wantsTokenSet }),
    ),
  );
  for (const [name, ticketRequired] of [
    ['loginByPassword', false],
    ['loginByPasswordSecure', true],
  ] as const) {
    defineRoute(app, ctx, name, async ({ body, client, captchaTicket, reply, wantsTokenSet }) => {
      const guard = { pid: body.pid, identity: body.identity, ip: client.ip, ticket: captchaTicket, ticketRequired };
      const signedIn = await guardPasswordLogin(ctx, guard, () =>
        loginByPassword(ctx, body, { ...client, wantsTokenSet }),
      );
      return answerSignIn(ctx, reply, signedIn);
    });
  }
  // type OAUTH: the code that binds a phone to an oauth_ticket's identity (captcha/oauth), by voice.
  defineRoute(app, ctx, 'sendVoiceCode', ({ body, client, captchaTicket }) =>
    body.type.toUpperCase() === 'OAUTH'
      ? sendOauthBindCode(ctx, {
          phone: body.phone_number,
          oauthTicket: body.oauth_ticket ?? '',
          pid: body.pid,
          ip: client.ip,
          captchaTicket,
          channel: 'voice',
        })
      : requestVoiceCode(ctx, body.type, { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'sendCommonCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'common', { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'logout', async ({ session, reply }) => {
    await endSession(ctx, session);
    clearAuthCookie(reply, ctx.config);
  });
};

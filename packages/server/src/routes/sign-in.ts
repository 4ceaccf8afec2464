import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { codeSendBy } from '../http/code-send.ts';
import { clearAuthCookie } from '../http/request-info.ts';
import { defineRoute } from '../http/route-kit.ts';
import { answerSignInFor, signInBy, signInRequest } from '../http/sign-in-answer.ts';
import { guardPasswordLogin } from '../services/captcha/gate.ts';
import { requestVoiceCode } from '../services/codes/requests.ts';
import { sendOauthBindCode } from '../services/oauth/sign-up.ts';
import { endSession } from '../services/sessions/tokens.ts';
import { keepAccount } from '../services/sign-in/keep-account.ts';
import { loginByEmail, loginByPassword, loginByPhone, loginByPhoneSilently } from '../services/sign-in/sign-in.ts';

export const signInRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'sendLoginCode', codeSendBy(ctx, 'login'));
  defineRoute(app, ctx, 'loginByPhone', signInBy(ctx, loginByPhone));
  defineRoute(app, ctx, 'sendSilentLoginCode', codeSendBy(ctx, 'silence'));
  defineRoute(app, ctx, 'loginByPhoneSilently', signInBy(ctx, loginByPhoneSilently));
  defineRoute(app, ctx, 'sendEmailLoginCode', codeSendBy(ctx, 'email_login'));
  defineRoute(app, ctx, 'loginByEmail', signInBy(ctx, loginByEmail));
  for (const [name, ticketRequired] of [
    ['loginByPassword', false],
    ['loginByPasswordSecure', true],
  ] as const) {
    defineRoute(app, ctx, name, async (input) => {
      const { body, client, captchaTicket } = input;
      const guard = { pid: body.pid, identity: body.identity, ip: client.ip, ticket: captchaTicket, ticketRequired };
      return answerSignInFor(
        ctx,
        input,
        await guardPasswordLogin(ctx, guard, (found, resetOnRight, withPlace) =>
          loginByPassword(ctx, body, signInRequest(input), found, { resetOnRight, withPlace }),
        ),
      );
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
  defineRoute(app, ctx, 'sendCommonCode', codeSendBy(ctx, 'common'));
  // An account waiting to be deleted: the ticket of its sign-in keeps it and finishes that sign-in.
  defineRoute(
    app,
    ctx,
    'keepAccount',
    signInBy(ctx, (c, body, request) => keepAccount(c, body.deletion_ticket, request)),
  );
  defineRoute(app, ctx, 'logout', async ({ session, reply }) => {
    await endSession(ctx, session);
    clearAuthCookie(reply, ctx.config);
  });
};

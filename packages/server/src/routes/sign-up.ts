import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { requestCode } from '../services/code-requests.ts';
import { checkEmailCode, registerByEmail, registerByPhone } from '../services/sign-up.ts';
import { answerSignIn } from './sign-in.ts';

export const signUpRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'sendRegisterCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'register', { target: body.phone_number, pid: body.pid, ip: client.ip, captchaTicket }),
  );
  defineRoute(app, ctx, 'registerByPhone', async (input) =>
    answerSignIn(
      ctx,
      input.reply,
      await registerByPhone(ctx, input.body, { ...input.client, wantsTokenSet: input.wantsTokenSet }),
    ),
  );
  defineRoute(app, ctx, 'sendEmailCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'email_register', { target: body.email, pid: body.pid, ip: client.ip, captchaTicket }, 'email'),
  );
  defineRoute(app, ctx, 'checkEmailCode', async ({ body }) => ({
    ticket: await checkEmailCode(ctx, body.email, body.captcha),
  }));
  defineRoute(app, ctx, 'registerByEmail', async (input) =>
    answerSignIn(
      ctx,
      input.reply,
      await registerByEmail(ctx, input.body, { ...input.client, wantsTokenSet: input.wantsTokenSet }),
    ),
  );
};

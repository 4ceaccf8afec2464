import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { requestCode } from '../services/codes/requests.ts';
import { checkEmailCode, registerByEmail, registerByPhone } from '../services/sign-in/sign-up.ts';
import { phoneCodeBy } from './phone-code.ts';
import { signInBy } from './sign-in.ts';

export const signUpRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'sendRegisterCode', phoneCodeBy(ctx, 'register'));
  defineRoute(app, ctx, 'registerByPhone', signInBy(ctx, registerByPhone));
  defineRoute(app, ctx, 'sendEmailCode', ({ body, client, captchaTicket }) =>
    requestCode(ctx, 'email_register', { target: body.email, pid: body.pid, ip: client.ip, captchaTicket }, 'email'),
  );
  defineRoute(app, ctx, 'checkEmailCode', async ({ body }) => ({
    ticket: await checkEmailCode(ctx, body.email, body.captcha),
  }));
  defineRoute(app, ctx, 'registerByEmail', signInBy(ctx, registerByEmail));
};

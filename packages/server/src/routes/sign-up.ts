import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { codeSendBy } from '../http/code-send.ts';
import { defineRoute } from '../http/route-kit.ts';
import { signInBy } from '../http/sign-in-answer.ts';
import { checkEmailCode, registerByEmail, registerByPhone } from '../services/sign-in/sign-up.ts';

export const signUpRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'sendRegisterCode', codeSendBy(ctx, 'register'));
  defineRoute(app, ctx, 'registerByPhone', signInBy(ctx, registerByPhone));
  defineRoute(app, ctx, 'sendEmailCode', codeSendBy(ctx, 'email_register'));
  defineRoute(app, ctx, 'checkEmailCode', async ({ body }) => ({
    ticket: await checkEmailCode(ctx, body.email, body.captcha),
  }));
  defineRoute(app, ctx, 'registerByEmail', signInBy(ctx, registerByEmail));
};

import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { answerSignInFor, signInRequest } from '../http/sign-in-answer.ts';
import {
  addPasskey,
  confirmTotp,
  namePasskey,
  removePasskey,
  removeTotp,
  replaceRecoveryCodes,
  resetSecondFactor,
  secondFactorStatus,
  startPasskeyRegistration,
  startTotp,
  stepUpBySecondFactor,
  stepUpPasskeyOptions,
} from '../services/second-factor/setup.ts';
import {
  challengePasskeyOptions,
  finishSignIn,
  passkeySignInOptions,
  signInWithPasskey,
} from '../services/second-factor/sign-in.ts';

export const secondFactorRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'secondFactorStatus', ({ session }) => secondFactorStatus(ctx, session));
  defineRoute(app, ctx, 'startTotp', ({ session, client }) => startTotp(ctx, session, client.ip));
  defineRoute(app, ctx, 'confirmTotp', ({ session, body, client }) => confirmTotp(ctx, session, body.code, client.ip));
  defineRoute(app, ctx, 'removeTotp', ({ session, client }) => removeTotp(ctx, session, client.ip));
  defineRoute(app, ctx, 'passkeyRegistrationOptions', ({ session, client }) =>
    startPasskeyRegistration(ctx, session, client.ip),
  );
  defineRoute(app, ctx, 'registerPasskey', ({ session, body, client }) => addPasskey(ctx, session, body, client.ip));
  defineRoute(app, ctx, 'renamePasskey', ({ session, params, body }) =>
    namePasskey(ctx, session, params.id, body.name),
  );
  defineRoute(app, ctx, 'removePasskey', ({ session, params, client }) =>
    removePasskey(ctx, session, params.id, client.ip),
  );
  defineRoute(app, ctx, 'newRecoveryCodes', ({ session, client }) => replaceRecoveryCodes(ctx, session, client.ip));
  defineRoute(app, ctx, 'stepUpPasskeyOptions', ({ session }) => stepUpPasskeyOptions(ctx, session));
  defineRoute(app, ctx, 'stepUpBySecondFactor', ({ session, body, client }) =>
    stepUpBySecondFactor(ctx, session, body, client.ip),
  );
  defineRoute(app, ctx, 'secondFactorPasskeyOptions', ({ body }) => challengePasskeyOptions(ctx, body.mfa_challenge));
  defineRoute(app, ctx, 'verifySecondFactor', async (input) =>
    answerSignInFor(ctx, input, await finishSignIn(ctx, input.body, signInRequest(input))),
  );
  defineRoute(app, ctx, 'passkeySignInOptions', ({ client }) => passkeySignInOptions(ctx, client.ip));
  defineRoute(app, ctx, 'passkeySignIn', async (input) =>
    answerSignInFor(ctx, input, await signInWithPasskey(ctx, input.body, signInRequest(input))),
  );
  defineRoute(
    app,
    ctx,
    'resetSecondFactor',
    ({ session, params }) => resetSecondFactor(ctx, session.userId, params.id),
    {
      tags: ['admin'],
    },
  );
};

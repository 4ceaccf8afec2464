/**
 * Signing in to the platform's other products: the OpenID Connect provider under /oidc, the calls
 * with which the web client shows and completes its interactions, and the check of a return address.
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { completeInteraction, denyInteraction, describeInteraction } from '../oidc/interactions.ts';
import { currentProvider, mountProvider } from '../oidc/mount.ts';
import { checkReturnTarget } from '../services/identity/return-targets.ts';

export const identityRoutes = (app: FastifyInstance, ctx: Context) => {
  const provider = currentProvider(ctx);
  mountProvider(app, ctx, provider);
  const tags = ['identity'];
  defineRoute(
    app,
    ctx,
    'interaction',
    async ({ params, request, reply, session }) =>
      describeInteraction(ctx, (await provider()).provider, { request, reply }, params.uid, session),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'completeInteraction',
    async ({ params, body, session, request, reply }) =>
      completeInteraction(
        ctx,
        (await provider()).provider,
        { request, reply },
        params.uid,
        session,
        body.consent === true,
      ),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'denyInteraction',
    async ({ params, request, reply }) =>
      denyInteraction(ctx, (await provider()).provider, { request, reply }, params.uid),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'checkReturn',
    async ({ body, session }) => checkReturnTarget(ctx, body.redirect, session?.userId, body.client_id),
    {
      tags,
    },
  );
};

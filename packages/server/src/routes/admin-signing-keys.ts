/** The console's signing keys: list them, rotate (operators only, audited). */
import type { SigningKeyInfo } from '@edupass/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { audit } from '../services/admin/operations.ts';
import type { SigningKeyStatus } from '../services/sessions/signing-key-states.ts';
import { listSigningKeys, rotateSigningKey } from '../services/sessions/signing-keys.ts';

const info = (key: SigningKeyStatus): SigningKeyInfo => ({
  generation: key.generation,
  kid: key.kid,
  alg: key.alg,
  state: key.state,
  created_at: key.createdAt,
  signs_from: key.signsFrom,
  published_until: key.publishedUntil ?? null,
});

export const adminSigningKeyRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listSigningKeys', async () => (await listSigningKeys(ctx)).map(info), { tags });
  defineRoute(
    app,
    ctx,
    'rotateSigningKey',
    async ({ session, body }) => {
      const key = await rotateSigningKey(ctx, body.now === true);
      await audit(ctx, session.userId, 'signing-key.rotate', `key:${key.kid}`, body.now === true ? 'now' : '');
      return info(key);
    },
    { tags },
  );
};

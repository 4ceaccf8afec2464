import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute } from '../http/route-kit.ts';
import { readAgreementText } from '../services/account/agreement-text.ts';
import { agreementsToSign, latestByCode, listAgreements, sign } from '../services/account/agreements.ts';

export const agreementRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'listAgreements', () => listAgreements(ctx));
  defineRoute(app, ctx, 'readAgreement', ({ query }) => readAgreementText(ctx, query.code, query.version));
  defineRoute(app, ctx, 'listAgreementsToSign', ({ session }) => agreementsToSign(ctx, session?.userId));
  defineRoute(app, ctx, 'signAgreements', ({ session, body }) =>
    sign(ctx, session.userId, body.agreement_ids, body.pid),
  );
  defineRoute(app, ctx, 'listLatestProtocols', ({ body }) => latestByCode(ctx, body.codeList, body.pid));
};

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { header } from '../http/request-info.ts';
import { defineRoute } from '../http/route-kit.ts';
import { readAgreementText } from '../services/account/agreement-text.ts';
import { agreementsToSign, latestByCode, listAgreements, sign } from '../services/account/agreements.ts';
import { readerLanguage } from '../services/account/reader-language.ts';
import { retentionStatement } from '../services/account/retention-statement.ts';

/** The reader's language: `lang` where the route has it, else the browser's Accept-Language. */
const language = (request: FastifyRequest, asked?: string) => readerLanguage(asked, header(request, 'accept-language'));

export const agreementRoutes = (app: FastifyInstance, ctx: Context) => {
  defineRoute(app, ctx, 'listAgreements', ({ request }) => listAgreements(ctx, language(request)));
  defineRoute(app, ctx, 'readAgreement', ({ query, request }) =>
    readAgreementText(ctx, query.code, query.version, language(request, query.lang)),
  );
  defineRoute(app, ctx, 'listAgreementsToSign', ({ session, request }) =>
    agreementsToSign(ctx, session?.userId, language(request)),
  );
  defineRoute(app, ctx, 'signAgreements', ({ session, body }) =>
    sign(ctx, session.userId, body.agreement_ids, body.pid),
  );
  // The privacy notice's retention statement, from the running settings.
  defineRoute(app, ctx, 'retentionStatement', async ({ query, request }) =>
    retentionStatement(ctx.config, language(request, query.lang)),
  );
  defineRoute(app, ctx, 'listLatestProtocols', ({ body, request }) =>
    latestByCode(ctx, body.codeList, body.pid, language(request)),
  );
};

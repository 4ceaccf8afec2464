/**
 * GET /exports/<secret>: the zip of a data export, once (services/account/data-export.ts). The link is
 * the credential (it reaches the person by e-mail), so no sign-in is asked; it is never cached.
 */
import { EXPORT_DOWNLOAD_PATH } from '@edupass/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { downloadExport } from '../services/account/data-export.ts';

export const dataExportDownloadRoute = (app: FastifyInstance, ctx: Context) => {
  app.get<{ Params: { secret: string } }>(
    `${EXPORT_DOWNLOAD_PATH}/:secret`,
    { schema: { hide: true } },
    async (request, reply) => {
      const zip = await downloadExport(ctx, request.params.secret);
      const day = new Date(ctx.now()).toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="edupass-data-${day}.zip"`)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(zip);
    },
  );
};

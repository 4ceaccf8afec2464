import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.ts';
import { defineRoute, StreamedJson } from '../http/route-kit.ts';
import { requestUserExport, userExports } from '../services/account/data-export.ts';
import { deleteUserByOperator } from '../services/account/deletion.ts';
import { exportAnswerStream, exportAuditLog } from '../services/admin/audit-export.ts';
import {
  agreementVersions,
  auditLog,
  endUserSessions,
  findUsers,
  operatorSelf,
  operators,
  publishAgreement,
  setBlocked,
  userDetail,
} from '../services/admin/operations.ts';

export const adminRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(
    app,
    ctx,
    'searchUsers',
    ({ session, query }) => findUsers(ctx, session.userId, query.q, query.cursor, query.limit),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'getUser',
    ({ session, params, query }) => userDetail(ctx, session.userId, params.id, query.reason),
    {
      tags,
    },
  );
  defineRoute(app, ctx, 'blockUser', ({ session, params }) => setBlocked(ctx, session.userId, params.id, true), {
    tags,
  });
  defineRoute(app, ctx, 'unblockUser', ({ session, params }) => setBlocked(ctx, session.userId, params.id, false), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'revokeUserSessions',
    ({ session, params }) => endUserSessions(ctx, session.userId, params.id),
    {
      tags,
    },
  );
  defineRoute(app, ctx, 'deleteUser', ({ session, params }) => deleteUserByOperator(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'requestUserExport',
    ({ session, params, body }) => requestUserExport(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(app, ctx, 'listUserExports', ({ session, params }) => userExports(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(app, ctx, 'listAllAgreements', () => agreementVersions(ctx), { tags });
  defineRoute(app, ctx, 'publishAgreement', ({ session, body }) => publishAgreement(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'listAudit', ({ session, query }) => auditLog(ctx, session.userId, query), { tags });
  defineRoute(
    app,
    ctx,
    'exportAuditLog',
    async ({ session, query }) =>
      new StreamedJson(exportAnswerStream(await exportAuditLog(ctx, session.userId, query))),
    { tags },
  );
  defineRoute(app, ctx, 'listOperators', () => operators(ctx), { tags });
  defineRoute(app, ctx, 'operatorSelf', async ({ session }) => operatorSelf(ctx, session), { tags });
};

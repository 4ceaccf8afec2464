/** Children and their guardians: consent, links and minor mode; each handler calls one service (services/edu). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { defineRoute } from '../../http/route-kit.ts';
import { childExports, requestChildExport } from '../../services/account/data-export.ts';
import { childRecordReads } from '../../services/account/record-reads.ts';
import { adultCheckState, checkAdult } from '../../services/edu/family/adult-check.ts';
import {
  consentRequest,
  decideConsent,
  guardianChildren,
  openChildConsentLink,
  openConsentLink,
  ownConsent,
  setOwnAge,
  withdrawConsent,
} from '../../services/edu/family/consent.ts';
import {
  linkChild,
  openGuardianCode,
  openPupilGuardianCode,
  ownGuardians,
  unlinkChild,
} from '../../services/edu/family/guardian-links.ts';
import {
  approveGuardianRequest,
  guardianRequests,
  refuseGuardianRequest,
} from '../../services/edu/family/guardian-requests.ts';
import {
  childRecord,
  deleteChildAccount,
  endChildDevice,
  keepChildAccount,
} from '../../services/edu/family/guardian-view.ts';
import { ownMinorMode, setChildMinorMode } from '../../services/edu/family/minor-mode.ts';
import { confirmSchoolInvite, schoolInvites, sendSchoolInviteCode } from '../../services/edu/family/school-invites.ts';

export const guardianRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['edu'];
  defineRoute(app, ctx, 'ownConsent', ({ session }) => ownConsent(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'openConsentLink', ({ session }) => openConsentLink(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'consentRequest', ({ session, body }) => consentRequest(ctx, session.userId, body.link), {
    tags,
  });
  defineRoute(app, ctx, 'decideConsent', ({ session, body }) => decideConsent(ctx, session.userId, body), { tags });
  defineRoute(app, ctx, 'ownAdultCheck', ({ session }) => adultCheckState(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'adultCheck', ({ session, body }) => checkAdult(ctx, session.userId, body), { tags });
  defineRoute(app, ctx, 'guardianChildren', ({ session }) => guardianChildren(ctx, session.userId), { tags });
  defineRoute(
    app,
    ctx,
    'requestChildExport',
    ({ session, params, body }) => requestChildExport(ctx, session.userId, params.id, body.lang),
    { tags },
  );
  defineRoute(app, ctx, 'listChildExports', ({ session, params }) => childExports(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'childAccessLog',
    ({ session, params, query }) => childRecordReads(ctx, session.userId, params.id, query),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'openChildConsentLink',
    ({ session, params }) => openChildConsentLink(ctx, session.userId, params.id),
    { tags },
  );
  defineRoute(app, ctx, 'withdrawConsent', ({ session, params }) => withdrawConsent(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(app, ctx, 'ownMinorMode', ({ session }) => ownMinorMode(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'openGuardianCode', ({ session }) => openGuardianCode(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'ownGuardians', ({ session }) => ownGuardians(ctx, session.userId), { tags });
  defineRoute(
    app,
    ctx,
    'pupilGuardianCode',
    ({ session, params }) => openPupilGuardianCode(ctx, session.userId, params.id, params.user_id),
    { tags },
  );
  defineRoute(app, ctx, 'setOwnAge', ({ session, body }) => setOwnAge(ctx, session.userId, body.birth_year_month), {
    tags,
  });
  defineRoute(app, ctx, 'guardianRequests', ({ session }) => guardianRequests(ctx, session.userId), { tags });
  defineRoute(
    app,
    ctx,
    'approveGuardianRequest',
    ({ session, params }) => approveGuardianRequest(ctx, session.userId, params.id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'refuseGuardianRequest',
    ({ session, params }) => refuseGuardianRequest(ctx, session.userId, params.id),
    { tags },
  );
  defineRoute(app, ctx, 'linkChild', ({ session, body }) => linkChild(ctx, session.userId, body), { tags });
  defineRoute(app, ctx, 'schoolInvites', ({ session }) => schoolInvites(ctx, session.userId), { tags });
  defineRoute(
    app,
    ctx,
    'schoolInviteCode',
    ({ session, params, client }) => sendSchoolInviteCode(ctx, session.userId, params.id, client.ip),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'confirmSchoolInvite',
    ({ session, params, body }) => confirmSchoolInvite(ctx, session.userId, params.id, body.captcha),
    { tags },
  );
  defineRoute(app, ctx, 'childRecord', ({ session, params }) => childRecord(ctx, session.userId, params.id), { tags });
  defineRoute(app, ctx, 'unlinkChild', ({ session, params }) => unlinkChild(ctx, session.userId, params.id), { tags });
  defineRoute(
    app,
    ctx,
    'endChildDevice',
    ({ session, params }) => endChildDevice(ctx, session.userId, params.id, params.key),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'setChildMinorMode',
    ({ session, params, body }) => setChildMinorMode(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'deleteChildAccount',
    ({ session, params }) => deleteChildAccount(ctx, session.userId, params.id),
    { tags },
  );
  defineRoute(app, ctx, 'keepChildAccount', ({ session, params }) => keepChildAccount(ctx, session.userId, params.id), {
    tags,
  });
};

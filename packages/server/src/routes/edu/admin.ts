/** The operator's education routes: schools, teacher approvals, quotas (bulk actions are in the audit log). */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { defineRoute } from '../../http/route-kit.ts';
import { currentConsentText, saveConsentText } from '../../services/edu/family/consent-text.ts';
import {
  endSchoolAgreement,
  listSchoolAgreements,
  recordSchoolAgreement,
} from '../../services/edu/family/school-agreements.ts';
import {
  addConnector,
  editConnector,
  listConnectors,
  setConnectorMapping,
  switchConnector,
} from '../../services/edu/federation/connectors.ts';
import {
  addAddressBook,
  addressBooks,
  editAddressBook,
  syncAddressBook,
} from '../../services/edu/roster/address-books.ts';
import { confirmRosterImport, getRosterImport, previewRosterImport } from '../../services/edu/roster/jobs.ts';
import { listSchools, listTeacherRequests } from '../../services/edu/school/school-pages.ts';
import { addSchool, approveTeacher, refuseTeacher, setSchoolQuota } from '../../services/edu/school/schools.ts';

export const adminEduRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['admin'];
  defineRoute(app, ctx, 'listSchools', ({ query }) => listSchools(ctx, query), { tags });
  defineRoute(app, ctx, 'addSchool', ({ session, body }) => addSchool(ctx, session.userId, body), { tags });
  defineRoute(
    app,
    ctx,
    'setSchoolQuota',
    ({ session, params, body }) => setSchoolQuota(ctx, session.userId, params.id, body.daily_batches),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'listTeacherRequests',
    ({ session, query }) => listTeacherRequests(ctx, session.userId, query),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'approveTeacherByOperator',
    ({ session, params }) => approveTeacher(ctx, session.userId, params.id, params.user_id, true),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'refuseTeacherByOperator',
    ({ session, params }) => refuseTeacher(ctx, session.userId, params.id, params.user_id),
    { tags },
  );
  defineRoute(app, ctx, 'listSchoolConnectors', () => listConnectors(ctx), { tags });
  defineRoute(app, ctx, 'listAddressBooks', () => addressBooks(ctx), { tags });
  defineRoute(
    app,
    ctx,
    'addAddressBook',
    ({ session, params, body }) => addAddressBook(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'editAddressBook',
    ({ session, params, body }) => editAddressBook(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(app, ctx, 'syncAddressBook', ({ session, params }) => syncAddressBook(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'addSchoolConnector',
    ({ session, params, body }) => addConnector(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'editSchoolConnector',
    async ({ session, params, body }) => {
      if (body.enabled === undefined && body.name === undefined && body.settings === undefined) {
        throw invalidRequest('Give enabled, name or settings.');
      }
      if (body.name !== undefined || body.settings !== undefined) {
        const edited = await editConnector(ctx, session.userId, params.id, {
          name: body.name,
          settings: body.settings,
        });
        if (body.enabled === undefined) return edited;
      }
      return switchConnector(ctx, session.userId, params.id, body.enabled ?? true);
    },
    { tags },
  );
  defineRoute(app, ctx, 'getConsentText', () => currentConsentText(ctx), { tags });
  defineRoute(app, ctx, 'saveConsentText', ({ session, body }) => saveConsentText(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'listSchoolAgreements', ({ params }) => listSchoolAgreements(ctx, params.id), { tags });
  defineRoute(
    app,
    ctx,
    'recordSchoolAgreement',
    ({ session, params, body }) => recordSchoolAgreement(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'endSchoolAgreement',
    ({ session, params }) => endSchoolAgreement(ctx, session.userId, params.id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'setSchoolConnectorMapping',
    ({ session, params, body }) => setConnectorMapping(ctx, session.userId, params.id, body.mapping),
    { tags },
  );
  defineRoute(app, ctx, 'previewRosterImport', ({ session, body }) => previewRosterImport(ctx, session.userId, body), {
    tags,
  });
  defineRoute(app, ctx, 'getRosterImport', ({ session, params }) => getRosterImport(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'confirmRosterImport',
    ({ session, params, body }) => confirmRosterImport(ctx, session.userId, params.id, body),
    { tags },
  );
};

/** The education layer's routes: each handler calls one service, which asks services/edu/access.ts. */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { defineRoute } from '../../http/route-kit.ts';
import { answerSignInFor, signInRequest } from '../../http/sign-in-answer.ts';
import { recordReads } from '../../services/account/record-reads.ts';
import { requireAccess } from '../../services/edu/access.ts';
import { guardiansToConfirm, resendGuardianInvite } from '../../services/edu/family/school-invites.ts';
import { signInByBadge } from '../../services/edu/school/badges.ts';
import { isCardLanguage } from '../../services/edu/school/card-texts.ts';
import { cardSheet } from '../../services/edu/school/cards.ts';
import {
  addClassTeacher,
  approveJoin,
  archiveClass,
  classDetail,
  createClass,
  joinClass,
  openJoinCode,
  promoteClass,
  refuseJoin,
  updateClass,
} from '../../services/edu/school/classes.ts';
import { mergePupils, pupilDuplicates } from '../../services/edu/school/merge-pupils.ts';
import { previewNames } from '../../services/edu/school/names.ts';
import { listOwnCards, revokeOwnCard, updateSchoolSettings } from '../../services/edu/school/pupil-cards.ts';
import { createPupils, movePupils, resetPupils } from '../../services/edu/school/pupils.ts';
import {
  addTeacherByPhone,
  approveTeacher,
  memberships,
  refuseTeacher,
  requestTeaching,
  schoolOverview,
  searchSchools,
} from '../../services/edu/school/schools.ts';
import { isStaffSession } from '../../services/sessions/idle.ts';
import { passwordChoiceDue, staffPasswordDue } from '../../services/sessions/password-choice.ts';

export const eduRoutes = (app: FastifyInstance, ctx: Context) => {
  const tags = ['edu'];
  defineRoute(
    app,
    ctx,
    'eduMemberships',
    ({ session }) =>
      memberships(
        ctx,
        session.userId,
        passwordChoiceDue(session.user) || staffPasswordDue(ctx, session.user),
        isStaffSession(session.user),
      ),
    { tags },
  );
  defineRoute(app, ctx, 'eduAccessLog', ({ session, query }) => recordReads(ctx, session.userId, query), { tags });
  defineRoute(
    app,
    ctx,
    'requestTeaching',
    ({ session, params, body }) => requestTeaching(ctx, session.userId, params.id, body.name),
    {
      tags,
    },
  );
  defineRoute(
    app,
    ctx,
    'approveTeacher',
    ({ session, params }) => approveTeacher(ctx, session.userId, params.id, params.user_id, false),
    { tags },
  );
  defineRoute(app, ctx, 'searchSchools', ({ query }) => searchSchools(ctx, query.q), { tags });
  defineRoute(
    app,
    ctx,
    'refuseTeacher',
    ({ session, params }) => refuseTeacher(ctx, session.userId, params.id, params.user_id, false),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'addSchoolTeacher',
    ({ session, params, body }) => addTeacherByPhone(ctx, session.userId, params.id, body.phone_number),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'guardiansToConfirm',
    ({ session, params, query }) => guardiansToConfirm(ctx, session.userId, params.id, query),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'resendGuardianInvite',
    ({ session, params }) => resendGuardianInvite(ctx, session.userId, params.id, params.invite_id),
    { tags },
  );
  defineRoute(app, ctx, 'schoolOverview', ({ session, params }) => schoolOverview(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'updateSchool',
    ({ session, params, body }) => updateSchoolSettings(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(app, ctx, 'listOwnCards', ({ session }) => listOwnCards(ctx, session.userId), { tags });
  defineRoute(app, ctx, 'revokeOwnCard', ({ session, params }) => revokeOwnCard(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'createClass',
    ({ session, params, body }) => createClass(ctx, session.userId, params.id, body),
    {
      tags,
    },
  );
  defineRoute(app, ctx, 'getClass', ({ session, params }) => classDetail(ctx, session.userId, params.id), { tags });
  defineRoute(
    app,
    ctx,
    'updateClass',
    ({ session, params, body }) => updateClass(ctx, session.userId, params.id, body),
    {
      tags,
    },
  );
  defineRoute(app, ctx, 'archiveClass', ({ session, params }) => archiveClass(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'promoteClass',
    ({ session, params, body }) => promoteClass(ctx, session.userId, params.id, body.school_year),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'addClassTeacher',
    ({ session, params, body }) => addClassTeacher(ctx, session.userId, params.id, body.user_id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'previewPupils',
    async ({ session, params, body }) => {
      await requireAccess(ctx, session.userId, { kind: 'class', id: params.id }, 'teach');
      return previewNames(body, ctx.config);
    },
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'createPupils',
    async ({ session, params, body }) => ({ pupils: await createPupils(ctx, session.userId, params.id, body.names) }),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'resetPupils',
    async ({ session, params, body }) => ({ pupils: await resetPupils(ctx, session.userId, params.id, body.user_ids) }),
    { tags },
  );
  defineRoute(app, ctx, 'pupilDuplicates', ({ session, params }) => pupilDuplicates(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(
    app,
    ctx,
    'mergePupils',
    ({ session, params, body }) => mergePupils(ctx, session.userId, params.id, body),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'movePupils',
    ({ session, params, body }) => movePupils(ctx, session.userId, params.id, body.user_ids, body.to_class_id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'cardSheet',
    ({ session, params, body }) => {
      if (!isCardLanguage(body.lang)) throw invalidRequest('lang must be zh-CN or en.');
      return cardSheet(ctx, session.userId, params.id, body.user_ids, body.lang);
    },
    { tags },
  );
  defineRoute(app, ctx, 'openJoinCode', ({ session, params }) => openJoinCode(ctx, session.userId, params.id), {
    tags,
  });
  defineRoute(app, ctx, 'joinClass', ({ session, body }) => joinClass(ctx, session.userId, body.join_code), { tags });
  defineRoute(
    app,
    ctx,
    'approveJoin',
    ({ session, params }) => approveJoin(ctx, session.userId, params.id, params.user_id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'refuseJoin',
    ({ session, params }) => refuseJoin(ctx, session.userId, params.id, params.user_id),
    { tags },
  );
  defineRoute(
    app,
    ctx,
    'signInByBadge',
    async (input) => answerSignInFor(ctx, input, await signInByBadge(ctx, input.body, signInRequest(input))),
    { tags },
  );
};

/**
 * The education layer's calls: schools, classes and their members, pupil accounts a teacher creates,
 * their login cards and sign-in badges. Every call answers from the caller's memberships: a class or
 * pupil the caller may not see is `E_2`, as if it did not exist.
 *
 * Pupil usernames and quotas: docs/education.md.
 */

import { loginResultAnswer } from './account-answers.ts';
import { type Answer, NO_CONTENT as none } from './answer-schema.ts';
// In a module of its own: the account SDK's `loginByBadge` then carries none of the table below.
import { signInByBadgeRoute } from './badge-route.ts';
import { described } from './described-route.ts';
import {
  accessLogAnswer,
  cardSheetAnswer,
  classAnswer,
  classDetailAnswer,
  guardiansToConfirmAnswer,
  inviteResentAnswer,
  joinCodeAnswer,
  membershipsAnswer,
  ownCardsAnswer,
  PUPIL_BATCH_MAX,
  pupilCredentialsAnswer,
  pupilPreviewAnswer,
  schoolOverviewAnswer,
  schoolSearchAnswer,
} from './edu-answers.ts';
import { ruled } from './route-fields.ts';
import type { FieldSpec, Method, RouteSpec } from './routes.ts';

export * from './edu-answers.ts';

const EDU_BASE = '/edu';
/** Card sheets and name files are larger than the 16 KiB of other calls. */
export const EDU_IMPORT_BODY_MAX = 2 * 1024 * 1024;

const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const ids = { type: 'integer[]', required: true, maxLength: PUPIL_BATCH_MAX } as const;
/** Wide enough that the server's own check (one of the grade list, services/edu/family/age.ts) answers. */
const grade = { type: 'integer', required: true, min: 0, max: 99 } as const;
/** The field, not required (typed as such: a spread of `F` would keep its `required: true` beside `false`). */
const optional = <const F extends FieldSpec>(field: F) =>
  ({ ...field, required: false }) as Omit<F, 'required'> & { readonly required: false };
const classParams = { id } as const;

// account-routes.ts's helper, again here on purpose (see second-factor-routes.ts).
/* @__NO_SIDE_EFFECTS__ */
export const eduRoute = <const A extends RouteSpec['auth'], const E extends object = Record<never, never>>(
  method: Method,
  path: string,
  auth: A,
  extra: E = {} as E,
) =>
  ({ method, path: `${EDU_BASE}/${path}`, host: 'tiger', auth, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: A; status: 200 },
    keyof E
  > &
    E;

const route = eduRoute;

export const eduMembershipsRoute = route('GET', 'me', 'token');
/** `cursor` a page's `next_cursor`, for the reads after it; `limit` at most 100, the default. */
export const readsPage = {
  cursor: optional(id),
  limit: optional({ type: 'integer', required: true } as const),
} as const;
export const eduAccessLogRoute = route('GET', 'me/access-log', 'token', { query: readsPage });
/** `name`: how the school knows the teacher ("王老师", or a real name), shown to pupils and guardians. */
export const requestTeachingRoute = route('POST', 'schools/:id/teacher-requests', 'token', {
  params: { id },
  body: { name: optional(s(32)) },
  status: 204,
});
export const approveTeacherRoute = route('POST', 'schools/:id/teachers/:user_id/approve', 'token', {
  params: { id, user_id: id },
  status: 204,
});
/** Schools by a part of their name (2 to 64 characters; case and spaces ignored), at most `SCHOOL_SEARCH_MAX`. */
export const searchSchoolsRoute = route('GET', 'schools', 'token', { query: { q: s(64) } });
/** A school admin turns down a pending request to teach; the person sees `refused` and may ask again. */
export const refuseTeacherRoute = route('POST', 'schools/:id/teachers/:user_id/refuse', 'token', {
  params: { id, user_id: id },
  status: 204,
});
/** A school admin makes the account with this phone number an approved teacher of the school. */
export const addSchoolTeacherRoute = route('POST', 'schools/:id/teachers', 'token', {
  params: { id },
  body: { phone_number: ruled('phone_number') },
  status: 204,
});
export const schoolOverviewRoute = route('GET', 'schools/:id', 'token', { params: { id } });
/** A school admin's "guardians to confirm", paged by `cursor` (a page's `next_cursor`); `limit` at most 100. */
export const guardiansToConfirmRoute = route('GET', 'schools/:id/guardians-to-confirm', 'token', {
  params: { id },
  query: readsPage,
});
/** A school admin sends a waiting invite's SMS invitation again (once per 10 minutes, 3 a day). */
export const resendGuardianInviteRoute = route('POST', 'schools/:id/guardians-to-confirm/:invite_id/resend', 'token', {
  params: { id, invite_id: id },
});
/** A school admin's settings of the school: whether pupils' cards keep working after their own password. */
export const updateSchoolRoute = route('PATCH', 'schools/:id', 'token', {
  params: { id },
  body: { cards_keep_working: { type: 'boolean', required: true } },
  status: 204,
});
export const createClassRoute = route('POST', 'schools/:id/classes', 'token', {
  params: { id },
  body: { name: s(64), grade, school_year: s(32) },
});
export const getClassRoute = route('GET', 'classes/:id', 'token', { params: classParams });
export const updateClassRoute = route('PATCH', 'classes/:id', 'token', {
  params: classParams,
  body: { name: optional(s(64)), grade: optional(grade), school_year: optional(s(32)) },
});
export const archiveClassRoute = route('POST', 'classes/:id/archive', 'token', { params: classParams, status: 204 });
export const promoteClassRoute = route('POST', 'classes/:id/promote', 'token', {
  params: classParams,
  body: { school_year: s(32) },
});
export const addClassTeacherRoute = route('POST', 'classes/:id/teachers', 'token', {
  params: classParams,
  body: { user_id: id },
  status: 204,
});
export const previewPupilsRoute = route('POST', 'classes/:id/pupils/preview', 'token', {
  params: classParams,
  /** Pasted names (one a line), or a CSV file as saved by Excel (UTF-8 or GBK) or an .xlsx workbook, in base64. */
  body: {
    text: optional({ type: 'string', maxLength: 200_000, multiline: true } as const),
    file_base64: optional(s(EDU_IMPORT_BODY_MAX)),
  },
  bodyLimit: EDU_IMPORT_BODY_MAX,
});
export const createPupilsRoute = route('POST', 'classes/:id/pupils', 'token', {
  params: classParams,
  body: { names: { type: 'string[]', required: true, maxLength: PUPIL_BATCH_MAX } },
});
export const resetPupilsRoute = route('POST', 'classes/:id/pupils/reset', 'token', {
  params: classParams,
  body: { user_ids: ids },
});
export const movePupilsRoute = route('POST', 'classes/:id/pupils/move', 'token', {
  params: classParams,
  body: { user_ids: ids, to_class_id: id },
  status: 204,
});
export const cardSheetRoute = route('POST', 'classes/:id/cards', 'token', {
  params: classParams,
  body: { user_ids: optional(ids), lang: { type: 'string', required: true, maxLength: 8 } },
});
export const openJoinCodeRoute = route('POST', 'classes/:id/join-code', 'token', { params: classParams });
export const joinClassRoute = route('POST', 'join', 'token', { body: { join_code: s(16) }, status: 204 });
export const approveJoinRoute = route('POST', 'classes/:id/join-requests/:user_id/approve', 'token', {
  params: { id, user_id: id },
  status: 204,
});
export const refuseJoinRoute = route('POST', 'classes/:id/join-requests/:user_id/refuse', 'token', {
  params: { id, user_id: id },
  status: 204,
});

/** The caller's login cards that still sign in, and what a password of their own does to them. */
export const listOwnCardsRoute = route('GET', 'me/cards', 'token');
/** Ends one of the caller's cards at once; done already is done; another's or an unknown card is `E_2`. */
export const revokeOwnCardRoute = route('DELETE', 'me/cards/:id', 'token', {
  params: { id: s(64) },
  status: 204,
});

/** The education layer's part of the route table (routes.ts). */
export const eduTable = {
  eduMemberships: described(eduMembershipsRoute, "The caller's schools, classes and roles", membershipsAnswer),
  eduAccessLog: described(eduAccessLogRoute, "Who was shown what of the caller's record, and why", accessLogAnswer),
  requestTeaching: described(requestTeachingRoute, 'Ask to teach at a school (needs a bound phone)', none),
  approveTeacher: described(approveTeacherRoute, 'A school admin approves a teacher of the school', none),
  searchSchools: described(
    searchSchoolsRoute,
    'Schools by a part of their name, to ask to teach there (id and name only, 20 at most)',
    schoolSearchAnswer,
  ),
  refuseTeacher: described(refuseTeacherRoute, 'A school admin turns down a request to teach at the school', none),
  addSchoolTeacher: described(
    addSchoolTeacherRoute,
    "A school admin adds a teacher by the teacher's phone number (an account of their own; approved at once)",
    none,
  ),
  schoolOverview: described(
    schoolOverviewRoute,
    "A school admin's view: teachers, classes, quota",
    schoolOverviewAnswer,
  ),
  guardiansToConfirm: described(
    guardiansToConfirmRoute,
    "A school admin's guardians to confirm: the school's invites still waiting",
    guardiansToConfirmAnswer,
  ),
  resendGuardianInvite: described(
    resendGuardianInviteRoute,
    'A school admin sends a waiting guardian invitation again by SMS',
    inviteResentAnswer,
  ),
  updateSchool: described(
    updateSchoolRoute,
    "A school admin's settings: whether pupils' cards keep working after their own password",
    none,
  ),
  createClass: described(createClassRoute, 'Open a class in a school the caller teaches at', classAnswer),
  getClass: described(getClassRoute, 'A class and its members', classDetailAnswer),
  updateClass: described(updateClassRoute, "Change a class's name, grade or school year", classAnswer),
  archiveClass: described(archiveClassRoute, 'Archive a class at the end of term', none),
  promoteClass: described(promoteClassRoute, 'Move a class up a grade into a new school year', classAnswer),
  addClassTeacher: described(addClassTeacherRoute, 'Add a co-teacher of the same school to a class', none),
  previewPupils: described(
    previewPupilsRoute,
    'Read pasted names, a CSV file or an .xlsx workbook; nothing is created',
    pupilPreviewAnswer,
  ),
  createPupils: described(createPupilsRoute, 'Create pupil accounts (up to 100) in a class', pupilCredentialsAnswer),
  resetPupils: described(
    resetPupilsRoute,
    "Reset pupils' passwords; their sessions and cards end",
    pupilCredentialsAnswer,
  ),
  movePupils: described(movePupilsRoute, 'Move pupils to another class of the school', none),
  cardSheet: described(
    cardSheetRoute,
    'A printable sheet of login cards (new badges; old ones revoked)',
    cardSheetAnswer,
  ),
  openJoinCode: described(
    openJoinCodeRoute,
    'A new join code for the class (the old one stops working)',
    joinCodeAnswer,
  ),
  joinClass: described(joinClassRoute, 'Ask to join a class with its code', none),
  approveJoin: described(approveJoinRoute, 'Approve a pupil who asked to join', none),
  refuseJoin: described(refuseJoinRoute, 'Turn down a pupil who asked to join', none),
  listOwnCards: described(
    listOwnCardsRoute,
    "The caller's login cards that still sign in (printed when, for which class)",
    ownCardsAnswer,
  ),
  revokeOwnCard: described(revokeOwnCardRoute, "End one of the caller's login cards at once", none),
  signInByBadge: described(signInByBadgeRoute, "Sign in with a login card's badge", loginResultAnswer),
};

/** A pupil's username and password as a creation or reset answers them (shown once). */
export type PupilCredentials = Answer<typeof pupilCredentialsAnswer>['pupils'][number];
export type ClassDetail = Answer<typeof classDetailAnswer>;
export type EduMemberships = Answer<typeof membershipsAnswer>;
export type EduAccessLog = Answer<typeof accessLogAnswer>;
export type SchoolOverview = Answer<typeof schoolOverviewAnswer>;
export type SchoolSearch = Answer<typeof schoolSearchAnswer>;
export type GuardiansToConfirm = Answer<typeof guardiansToConfirmAnswer>;
export type EduClass = Answer<typeof classAnswer>;
export type OwnCards = Answer<typeof ownCardsAnswer>;

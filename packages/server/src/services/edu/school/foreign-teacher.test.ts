/**
 * Every education route walked with a foreign teacher's token (an approved teacher of another school,
 * and a teacher of another class of the same school): each answers 404 or 403 and never the data.
 */
import { type RouteSpec, routes } from '@edupass/protocol';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';

const { server, call } = useTestServer();
const edu = eduSteps(server, call);

/**
 * Routes open to every signed-in user (or to anyone) by design: their own memberships, access log and
 * consent, finding a school (names only) and asking to teach (services/edu/school/teacher-way-in.test.ts) or to join by code, a guardian's own children and decision on a consent
 * link (services/edu/family/consent.test.ts), the caller's minor mode, guardian codes and guardians,
 * and linking with a code (services/edu/family/guardian-links.test.ts), one's own age and guardian
 * requests (services/edu/family/guardian-requests.test.ts), the invites a school's address book
 * made for one's own phone (services/edu/family/school-invites.test.ts), one's own login cards
 * (services/edu/school/pupil-cards.test.ts), a copy of one's own data
 * (services/account/data-export.test.ts), and signing in with a school's own system — the list
 * of schools, the browser's round trip, the school systems' logouts and where one's own sign-out
 * goes (services/edu/federation/cas/sign-in.test.ts, services/edu/federation/oidc/sign-in.test.ts,
 * services/edu/federation/workapp/sign-in.test.ts).
 */
const OPEN_TO_ALL = new Set([
  'eduMemberships',
  'eduAccessLog',
  'requestTeaching',
  'searchSchools',
  'joinClass',
  'signInByBadge',
  'ownConsent',
  'setOwnAge',
  'openConsentLink',
  'consentRequest',
  'decideConsent',
  'guardianChildren',
  'ownMinorMode',
  'ownAdultCheck',
  'adultCheck',
  'openGuardianCode',
  'ownGuardians',
  'linkChild',
  'guardianRequests',
  'schoolInvites',
  'confirmSchoolInvite',
  'requestExport',
  'listExports',
  'listOwnCards',
  'revokeOwnCard',
  'schoolChoices',
  'startSchoolSignIn',
  'finishSchoolSignIn',
  'finishOidcSignIn',
  'finishAppSignIn',
  'schoolSingleLogout',
  'platformLogout',
  'samlServiceProvider',
  'finishSamlSignIn',
  'samlSingleLogout',
  'samlSingleLogoutRedirect',
  'schoolSignOut',
]);

const eduRoutes = Object.entries(routes as Record<string, RouteSpec>).filter(
  ([name, spec]) => spec.path.startsWith('/edu/') && !OPEN_TO_ALL.has(name),
);

let target: { schoolId: number; classId: number; otherClassId: number; pupilId: number; secrets: string[] };
let outsider: string;
let colleague: string;
let owner: string;

const bodyFor = (name: string): Record<string, unknown> => {
  const { classId, otherClassId, pupilId } = target;
  const bodies: Record<string, Record<string, unknown>> = {
    createClass: { name: '外来班', grade: 1, school_year: '2026' },
    updateClass: { name: '改名' },
    updateSchool: { cards_keep_working: true },
    promoteClass: { school_year: '2027' },
    addClassTeacher: { user_id: pupilId },
    previewPupils: { text: '张三' },
    createPupils: { names: ['张三'] },
    resetPupils: { user_ids: [pupilId] },
    movePupils: { user_ids: [pupilId], to_class_id: name === 'movePupils' ? otherClassId : classId },
    cardSheet: { lang: 'en', user_ids: [pupilId] },
    addSchoolTeacher: { phone_number: '13800000000' },
    mergePupils: { keep: pupilId, end: pupilId },
  };
  return bodies[name] ?? {};
};

beforeAll(async () => {
  const schoolId = await edu.addSchool();
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  const [pupil] = await edu.createPupils(teacher, classId, ['秘密同学']);
  if (!pupil) throw new Error('no pupil');
  const otherSchool = await edu.addSchool('别的学校');
  const foreign = await edu.approvedTeacher(otherSchool);
  const otherClassId = await edu.createClass(foreign, otherSchool);
  const sameSchool = await edu.approvedTeacher(schoolId);
  await edu.createClass(sameSchool, schoolId, '隔壁班');
  target = {
    schoolId,
    classId,
    otherClassId,
    pupilId: pupil.user_id,
    secrets: [pupil.username, pupil.password, '秘密同学'],
  };
  outsider = foreign.token;
  owner = teacher.token;
  colleague = sameSchool.token;
});

describe('a teacher never reads or changes another school’s or class’s pupils', () => {
  test('the walk covers every education route', () => {
    expect(eduRoutes.length).toBeGreaterThanOrEqual(15);
  });

  test.each(eduRoutes)('%s: 404 or 403, never data', async (name, spec) => {
    const { schoolId, classId, pupilId } = target;
    const path = pathOf(spec.path, {
      id: spec.path.startsWith('/edu/schools') ? schoolId : classId,
      user_id: pupilId,
      invite_id: 1,
    });
    const body = spec.method === 'GET' ? undefined : bodyFor(name);
    for (const [who, token] of [
      ['teacher of another school', outsider],
      ['teacher of another class', colleague],
    ] as const) {
      // A colleague of the same school may open classes there: the one route a school's teacher passes.
      if (name === 'createClass' && token === colleague) continue;
      const answer = await call(spec.method, path, body, { token });
      expect([403, 404], `${who}: ${answer.status} ${JSON.stringify(answer.body)}`).toContain(answer.status);
      for (const secret of target.secrets) expect(JSON.stringify(answer.body)).not.toContain(secret);
    }
  });

  test('the class is unchanged by the walk: same name, not archived, the pupil still in it', async () => {
    const detail = edu.ok<{ class: { name: string; archived: boolean }; members: { user_id: number }[] }>(
      await edu.classDetail(owner, target.classId),
    );
    expect(detail.class).toMatchObject({ name: '三年级二班', archived: false });
    expect(detail.members.map((m) => m.user_id)).toContain(target.pupilId);
  });
});

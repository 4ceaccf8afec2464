/**
 * The school sign-in against a CAS server this project did not write: django-cas-server 2.0 (Debian's
 * python3-django-cas-server), its own login form, its CAS 3.0 validation answer, its single logout,
 * `renew` (a connector for shared computers) and its `/logout` (a connector that signs out there too);
 * and one pupil, one account: the roster's 学号 and the CAS user are one key of the school, whichever
 * comes first.
 */
import { type ClassDetail, type EduMemberships, routes } from '@edupass/protocol';
import { expectError, signUp } from '@edupass/test-kit/accounts';
import { type DjangoCas, djangoCasAvailable, startDjangoCas } from '@edupass/test-kit/django-cas-server';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const { server, call } = useOauthTestServer();
const edu = eduSteps(server, call);

/** A connector to the CAS server with `settings` besides its address. */
const addConnector = async (code: string, serverUrl: string, settings: Record<string, unknown> = {}) => {
  const schoolId = await edu.addSchool(`学校 ${code}`);
  edu.ok(
    await call(
      'POST',
      pathOf(routes.addSchoolConnector.path, { id: schoolId }),
      { code, kind: 'cas', name: `${code} 统一身份认证`, settings: { server_url: serverUrl, ...settings } },
      { token: await edu.operatorToken() },
    ),
  );
  return schoolId;
};

/** The start at EduPass in a browser: the school's login page, and the state cookie. */
const startAt = async (code: string) => {
  const start = new URL(routes.startSchoolSignIn.path.replace(':code', code), server.url);
  start.searchParams.set('redirect', `${server.url}/account`);
  const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
  return { loginPage: redirectTarget(started), state: cookieSet(started, 'edupass_school') ?? '' };
};

/** The browser back at EduPass with a ticket: where it lands, and the session cookie if signed in. */
const backAt = async (back: string, state: string) => {
  const finished = await fetch(back, { redirect: 'manual', headers: { accept: 'text/html', cookie: state } });
  return { landed: redirectTarget(finished), auth: cookieSet(finished, 'authorization') };
};

/** The account the `authorization` cookie (or an access token) signs in, and the classes it is in. */
const whoIs = async (auth: string | { token: string }) => {
  const as = typeof auth === 'string' ? { headers: { cookie: auth } } : auth;
  const { id } = edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, as));
  const { classes } = edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, as));
  return { id, classes };
};

/** The school's roster template (CSV) with the CAS person as pupil 李华 of 高一(3)班 and a head teacher. */
const rosterOf = (school: string, teacherPhone: string) =>
  [
    '学校,班级,年级,学年,姓名,角色,学号,手机',
    `${school},高一(3)班,高一,2026-2027,李华,学生,2026010203,`,
    `${school},高一(3)班,高一,2026-2027,王老师,班主任,T-0001,${teacherPhone}`,
  ].join('\n');

/** The pupils of a class, as its teacher's class page lists them. */
const pupilsOf = async (token: string, classId: number) =>
  edu
    .ok<ClassDetail>(await edu.classDetail(token, classId))
    .members.filter((m) => m.role === 'pupil')
    .map((m) => m.user_id);

describe.skipIf(!djangoCasAvailable())('django-cas-server as the school’s CAS server', () => {
  let cas: DjangoCas;
  beforeAll(async () => {
    cas = await startDjangoCas({
      user: '2026010203',
      password: 'Kestrel-2718',
      attributes: { affiliation: 'student', class: '高一(3)班', displayName: '李华' },
    });
  }, 180_000);
  afterAll(() => cas?.close());

  /** A page of the CAS server, visited with its session's cookies. */
  const visit = async (url: string, cookies: string) => {
    const page = await fetch(url, { redirect: 'manual', headers: { cookie: cookies } });
    return { status: page.status, location: page.headers.get('location'), html: await page.text() };
  };

  test('a pupil signs in at the school’s page, lands in the class, and the school’s sign-out ends the session', async () => {
    const schoolId = await addConnector('django-cas', cas.url);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '高一(3)班');

    const { loginPage, state } = await startAt('django-cas');
    const { back, cookies } = await cas.signIn(loginPage);
    expect(back).toMatch(/[?&]ticket=ST-/);
    const { landed, auth = '' } = await backAt(back, state);
    expect(landed).toBe(`${server.url}/account`);
    const me = edu.ok<EduMemberships>(
      await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth } }),
    );
    expect(me.classes).toEqual([expect.objectContaining({ id: classId, role: 'pupil' })]);

    // Signing out at the school: django-cas-server posts its LogoutRequest to the service address.
    await cas.logout(cookies);
    await expect
      .poll(
        async () =>
          (await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth } })).body as {
            error_code?: string;
          },
        { timeout: 60_000, interval: 500 },
      )
      .toMatchObject({ error_code: 'E_0' });
    expectError(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth } }), 'E_0');
  }, 120_000);

  test('shared computers: with force_sign_in the CAS session left open is not enough, the password is asked again', async () => {
    await addConnector('django-shared', cas.url, { force_sign_in: true });
    await addConnector('django-sso', cas.url);
    // The last pupil signed in at the school's page on this computer and left without signing out there.
    const { cookies } = await cas.signIn((await startAt('django-sso')).loginPage);
    // Without the setting, the school's session signs the next pupil straight in as the last one.
    const sso = await visit((await startAt('django-sso')).loginPage, cookies);
    expect(sso.status).toBe(302);
    expect(sso.location).toMatch(/[?&]ticket=ST-/);
    // With it, the CAS server shows its password form again.
    const shared = await startAt('django-shared');
    expect(new URL(shared.loginPage).searchParams.get('renew')).toBe('true');
    const asked = await visit(shared.loginPage, cookies);
    expect(asked.status).toBe(200);
    expect(asked.html).toMatch(/name="password"/);
    // The next pupil deletes `renew` from the address: the school's session issues a ticket, and the
    // validation (which asks for renew itself) refuses it.
    const stripped = new URL(shared.loginPage);
    stripped.searchParams.delete('renew');
    const fromSession = await visit(stripped.toString(), cookies);
    expect(fromSession.location).toMatch(/[?&]ticket=ST-/);
    const refused = await backAt(fromSession.location ?? '', shared.state);
    expect(refused.landed).toBe(`${server.url}/?school=django-shared&error=refused`);
    expect(refused.auth).toBeUndefined();
  }, 120_000);

  test('signing out here signs out at the CAS server too (sign_out_at_school), and comes back to the sign-in screen', async () => {
    await addConnector('django-sign-out', cas.url, { sign_out_at_school: true });
    const { loginPage, state } = await startAt('django-sign-out');
    const { back, cookies } = await cas.signIn(loginPage);
    const { auth = '' } = await backAt(back, state);
    const { url } = edu.ok<{ url: string }>(
      await call('POST', routes.schoolSignOut.path, undefined, { headers: { cookie: auth } }),
    );
    const signedOut = `${server.url}/?notice=signed-out`;
    expect(url).toBe(`${cas.url}/logout?service=${encodeURIComponent(signedOut)}`);
    expect((await visit(url, cookies)).location).toBe(signedOut);
    // The CAS session is over: its page asks for the password again.
    const again = await visit(loginPage, cookies);
    expect(again.status).toBe(200);
    expect(again.html).toMatch(/name="password"/);
  }, 120_000);

  test('one pupil, one account: imported from the roster (学号 2026010203), then signed in by the school’s CAS with that number, the pupil is the roster’s account, in the current year’s class only', async () => {
    const schoolId = await addConnector('django-roster', cas.url);
    // Last year's class of the same name, not archived: a name alone means the current year's.
    await edu.createClass(await edu.approvedTeacher(schoolId), schoolId, '高一(3)班', '2025-2026');
    const head = await signUp(server);
    const { applied } = await edu.importRoster(rosterOf('学校 django-roster', head.phone), schoolId);
    expect(applied.counts).toMatchObject({ pupils_created: 1, teachers_matched: 1, classes_created: 1 });
    const rosterClass = (await whoIs({ token: head.token })).classes.find((c) => c.school_year === '2026-2027');
    expect(rosterClass).toBeDefined();
    const [rosterPupil] = await pupilsOf(head.token, rosterClass?.id ?? 0);

    const { loginPage, state } = await startAt('django-roster');
    const { back } = await cas.signIn(loginPage);
    const { auth = '' } = await backAt(back, state);
    const signedIn = await whoIs(auth);
    expect(signedIn.id).toBe(rosterPupil);
    expect(signedIn.classes.map((c) => [c.id, c.role])).toEqual([[rosterClass?.id, 'pupil']]);
    expect(await pupilsOf(head.token, rosterClass?.id ?? 0)).toEqual([rosterPupil]);
    // One key of the school for the person, an HMAC: the number itself is nowhere.
    const keys = await server.app.ctx.db
      .selectFrom('school_person_keys')
      .selectAll()
      .where('school_id', '=', schoolId)
      .where('user_id', '=', rosterPupil ?? 0)
      .execute();
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain('2026010203');
  }, 120_000);

  test('the other way round: signed in by the school’s CAS first, the pupil is then matched by the roster, no second account made', async () => {
    const schoolId = await addConnector('django-first', cas.url);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '高一(3)班');
    const first = await startAt('django-first');
    const { auth = '' } = await backAt((await cas.signIn(first.loginPage)).back, first.state);
    const casAccount = (await whoIs(auth)).id;

    const head = await signUp(server);
    const { preview, applied } = await edu.importRoster(rosterOf('学校 django-first', head.phone), schoolId);
    expect(preview.counts).toMatchObject({ pupils_created: 0, classes_created: 0 });
    expect(preview.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'class', action: 'match', name: '高一(3)班', detail: `class:${classId}` }),
        { kind: 'person', action: 'match', name: '李华', detail: `user:${casAccount}` },
      ]),
    );
    expect(applied.status).toBe('applied');
    expect(await pupilsOf(teacher.token, classId)).toEqual([casAccount]);
    // The same file again changes nothing; the CAS sign-in is still the one account.
    const again = await edu.importRoster(rosterOf('学校 django-first', head.phone), schoolId);
    expect(again.preview.items).toEqual([]);
    const back = await startAt('django-first');
    const { auth: auth2 = '' } = await backAt((await cas.signIn(back.loginPage)).back, back.state);
    expect((await whoIs(auth2)).id).toBe(casAccount);
  }, 120_000);
});

/**
 * The school sign-in against a CAS server this project did not write: django-cas-server 2.0 (Debian's
 * python3-django-cas-server), its own login form, its CAS 3.0 validation answer, its single logout,
 * `renew` (a connector for shared computers) and its `/logout` (a connector that signs out there too).
 */
import { type EduMemberships, routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
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
});

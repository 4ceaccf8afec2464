/**
 * The school sign-in against a CAS server this project did not write: django-cas-server 2.0 (Debian's
 * python3-django-cas-server), its own login form, its CAS 3.0 validation answer and its single logout.
 */
import { type EduMemberships, routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { type DjangoCas, djangoCasAvailable, startDjangoCas } from '@edupass/test-kit/django-cas-server';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const { server, call } = useOauthTestServer();
const edu = eduSteps(server, call);

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

  test('a pupil signs in at the school’s page, lands in the class, and the school’s sign-out ends the session', async () => {
    const schoolId = await edu.addSchool('第一中学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '高一(3)班');
    edu.ok(
      await call(
        'POST',
        pathOf(routes.addSchoolConnector.path, { id: schoolId }),
        { code: 'django-cas', kind: 'cas', name: '第一中学统一身份认证', settings: { server_url: cas.url } },
        { token: await edu.operatorToken() },
      ),
    );

    const start = new URL(routes.startSchoolSignIn.path.replace(':code', 'django-cas'), server.url);
    start.searchParams.set('redirect', `${server.url}/account`);
    const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(started.status).toBe(302);
    const state =
      started.headers
        .getSetCookie()
        .find((l) => l.startsWith('edupass_school='))
        ?.split(';')[0] ?? '';
    const { back, cookies } = await cas.signIn(started.headers.get('location') ?? '');
    expect(back).toMatch(/[?&]ticket=ST-/);
    const finished = await fetch(back, { redirect: 'manual', headers: { accept: 'text/html', cookie: state } });
    expect(finished.headers.get('location')).toBe(`${server.url}/account`);
    const auth =
      finished.headers
        .getSetCookie()
        .find((l) => l.startsWith('authorization='))
        ?.split(';')[0] ?? '';
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
    const schoolId = await edu.addSchool('第二中学');
    const operator = await edu.operatorToken();
    const connector = async (code: string, force: boolean) =>
      edu.ok(
        await call(
          'POST',
          pathOf(routes.addSchoolConnector.path, { id: schoolId }),
          { code, kind: 'cas', name: code, settings: { server_url: cas.url, force_sign_in: force } },
          { token: operator },
        ),
      );
    await connector('django-shared', true);
    await connector('django-sso', false);
    const loginPage = async (code: string) => {
      const start = new URL(routes.startSchoolSignIn.path.replace(':code', code), server.url);
      start.searchParams.set('redirect', `${server.url}/account`);
      const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
      return started.headers.get('location') ?? '';
    };
    // The last pupil signed in at the school's page on this computer and left without signing out there.
    const { cookies } = await cas.signIn(await loginPage('django-sso'));
    const visit = async (url: string) => {
      const page = await fetch(url, { redirect: 'manual', headers: { cookie: cookies } });
      return { status: page.status, location: page.headers.get('location'), html: await page.text() };
    };
    // Without the setting, the school's session signs the next pupil straight in as the last one.
    const sso = await visit(await loginPage('django-sso'));
    expect(sso.status).toBe(302);
    expect(sso.location).toMatch(/[?&]ticket=ST-/);
    // With it, the CAS server shows its password form again.
    const shared = await loginPage('django-shared');
    expect(new URL(shared).searchParams.get('renew')).toBe('true');
    const asked = await visit(shared);
    expect(asked.status).toBe(200);
    expect(asked.html).toMatch(/name="password"/);
    // The next pupil deletes `renew` from the address: the school's session issues a ticket, and the
    // validation (which asks for renew itself) refuses it.
    const start = new URL(routes.startSchoolSignIn.path.replace(':code', 'django-shared'), server.url);
    start.searchParams.set('redirect', `${server.url}/account`);
    const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
    const state =
      started.headers
        .getSetCookie()
        .find((l) => l.startsWith('edupass_school='))
        ?.split(';')[0] ?? '';
    const stripped = new URL(started.headers.get('location') ?? '');
    stripped.searchParams.delete('renew');
    const fromSession = await visit(stripped.toString());
    expect(fromSession.location).toMatch(/[?&]ticket=ST-/);
    const back = await fetch(fromSession.location ?? '', {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: state },
    });
    expect(back.headers.get('location')).toBe(`${server.url}/?school=django-shared&error=refused`);
    expect(back.headers.getSetCookie().some((l) => l.startsWith('authorization='))).toBe(false);
  }, 120_000);
});

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
});

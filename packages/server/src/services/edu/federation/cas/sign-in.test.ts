import { request as httpRequest } from 'node:http';
import { type EduMemberships, type PupilDuplicates, routes } from '@edupass/protocol';
import { A, expectError, expectSignedIn, signUp } from '@edupass/test-kit/accounts';
import { type CasPerson, type CasServer, logoutRequestDocument, startCasServer } from '@edupass/test-kit/cas-server';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sweepOnce } from '../../../platform/housekeeping.ts';
import { hmac } from '../../../security/hashing.ts';
import { schoolKeyOf } from '../../school/person-keys.ts';

/** The server's warnings: a refused sign-in is logged with why. */
const warnings: string[] = [];
const { server, call } = useOauthTestServer(
  {},
  { logger: { level: 'warn', stream: { write: (line: string) => warnings.push(line) } } },
);
const edu = eduSteps(server, call);
let cas: CasServer;
beforeAll(async () => {
  cas = await startCasServer();
});
afterAll(() => cas.close());

let codes = 0;
/** A school with a CAS connector pointing at the test CAS server; its code and id. */
const schoolWithCas = async (
  mapping?: Record<string, unknown>,
  version: '2.0' | '3.0' = '3.0',
  settings: Record<string, unknown> = {},
  agreement = true,
  adminUserId?: number,
) => {
  const schoolId = await edu.addSchool('第一中学', undefined, agreement, adminUserId);
  const code = `yizhong-${++codes}`;
  const added = await call(
    'POST',
    pathOf(routes.addSchoolConnector.path, { id: schoolId }),
    {
      code,
      kind: 'cas',
      name: '第一中学统一身份认证',
      settings: { server_url: cas.url, version, ...settings },
      mapping,
    },
    { token: await edu.operatorToken() },
  );
  edu.ok(added);
  return { schoolId, code };
};

interface BrowserSignIn {
  /** Where the site sent the browser at the end. */
  landed: string;
  /** The `authorization` cookie, if signed in. */
  auth: string | undefined;
  ticket: string;
}

/** A browser's round trip: start at EduPass, sign in at the school's CAS page, come back. */
const signInWithSchool = async (
  code: string,
  person: CasPerson,
  options: { token?: string; link?: boolean; keepCookie?: boolean } = {},
): Promise<BrowserSignIn> => {
  const redirect = `${server.url}/account`;
  const start = new URL(pathOf(routes.startSchoolSignIn.path.replace(':code', code), {}), server.url);
  start.searchParams.set('redirect', redirect);
  if (options.link) start.searchParams.set('link', '1');
  const started = await fetch(start, {
    redirect: 'manual',
    headers: { accept: 'text/html', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
  });
  const loginPage = redirectTarget(started);
  expect(loginPage.startsWith(`${cas.url}/login?service=`)).toBe(true);
  const stateCookie = cookieSet(started, 'edupass_school');
  cas.signInAs(person);
  const back = redirectTarget(await fetch(loginPage, { redirect: 'manual' }));
  const ticket = new URL(back).searchParams.get('ticket') ?? '';
  const finished = await fetch(back, {
    redirect: 'manual',
    headers: { accept: 'text/html', ...(options.keepCookie === false ? {} : { cookie: stateCookie ?? '' }) },
  });
  return { landed: redirectTarget(finished), auth: cookieSet(finished, 'authorization'), ticket };
};

const membershipsOf = async (auth: string | undefined) => {
  const answer = await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } });
  return edu.ok<EduMemberships>(answer);
};

const pupil = (user: string, className = '高一(3)班'): CasPerson => ({
  user,
  attributes: { displayName: ['李华'], affiliation: ['student'], class: [className] },
});

describe('signing in with a school CAS server (CAS 3.0, the specification’s sample answers)', () => {
  test('a pupil signs in just in time, lands in the school’s class, and the same account comes back next time', async () => {
    const { schoolId, code } = await schoolWithCas();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '高一(3)班');

    const first = await signInWithSchool(code, pupil('2026010203'));
    expect(first.landed).toBe(`${server.url}/account`);
    expect(first.auth).toMatch(/^authorization=./);
    // The ticket was validated at the 3.0 endpoint for exactly the service it was issued to.
    expect(cas.validations.at(-1)).toMatch(/^\/cas\/p3\/serviceValidate\?/);
    const memberships = await membershipsOf(first.auth);
    expect(memberships.classes).toEqual([expect.objectContaining({ id: classId, role: 'pupil' })]);

    const again = await signInWithSchool(code, pupil('2026010203'));
    const profile = await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: again.auth ?? '' } });
    edu.ok(profile);
    const ids = await server.app.ctx.db.selectFrom('school_person_keys').selectAll().execute();
    const mine = ids.filter((row) => JSON.stringify(row).includes('2026010203'));
    // Only an opaque HMAC of the student number is stored.
    expect(mine).toEqual([]);
    const users = await server.app.ctx.db
      .selectFrom('sessions')
      .select('user_id')
      .where('method', '=', 'school_cas')
      .execute();
    expect(new Set(users.slice(-2).map((u) => Number(u.user_id))).size).toBe(1);
  });

  test('two first sign-ins of one person at once make one account', async () => {
    const { code } = await schoolWithCas();
    const rounds = await Promise.all([
      signInWithSchool(code, pupil('S-parallel')),
      signInWithSchool(code, pupil('S-parallel')),
      signInWithSchool(code, pupil('S-parallel')),
    ]);
    const users = await Promise.all(
      rounds.map(async (round) => {
        expect(round.auth).toMatch(/^authorization=./);
        const me = await call('GET', routes.getProfile.path, undefined, { headers: { cookie: round.auth ?? '' } });
        return edu.ok<{ id: number }>(me).id;
      }),
    );
    expect(new Set(users).size).toBe(1);
    const links = await server.app.ctx.db
      .selectFrom('school_person_keys')
      .select('user_id')
      .where('user_id', '=', users[0] ?? 0)
      .execute();
    expect(links).toHaveLength(1);
  });

  test('a teacher (affiliation faculty) lands as an approved teacher of the school and of the classes named', async () => {
    const { schoolId, code } = await schoolWithCas();
    const head = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(head, schoolId, '初二(1)班');
    // The specification's §2.5.7 attributes (affiliation staff and faculty), and a class.
    const signedIn = await signInWithSchool(code, {
      user: 'jdoe',
      attributes: { firstname: ['John'], affiliation: ['staff', 'faculty'], class: ['初二(1)班', '不存在的班'] },
    });
    const memberships = await membershipsOf(signedIn.auth);
    expect(memberships.schools).toEqual([
      expect.objectContaining({ id: schoolId, role: 'teacher', status: 'approved' }),
    ]);
    expect(memberships.classes).toEqual([expect.objectContaining({ id: classId, role: 'teacher' })]);
  });

  test('a mapping per connector: another subject attribute and other role values', async () => {
    const { schoolId, code } = await schoolWithCas({
      subject: 'uid',
      role_attribute: 'userType',
      pupil_values: ['XS'],
      teacher_values: ['JZG'],
    });
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级二班');
    const person = { user: 'li.hua', attributes: { uid: ['u-77'], userType: ['XS'], class: ['三年级二班'] } };
    const first = await signInWithSchool(code, person);
    expect((await membershipsOf(first.auth)).classes).toEqual([
      expect.objectContaining({ id: classId, role: 'pupil' }),
    ]);
    // Without the subject attribute nobody can be named: refused, sent back to the sign-in page.
    const nameless = await signInWithSchool(code, { user: 'x', attributes: { userType: ['XS'] } });
    expect(nameless.auth).toBeUndefined();
    expect(nameless.landed).toBe(`${server.url}/?school=${code}&error=refused`);
  });

  test('CAS 2.0: validated at /serviceValidate, which releases no attributes, so no membership is given', async () => {
    const { code } = await schoolWithCas(undefined, '2.0');
    const signedIn = await signInWithSchool(code, pupil('S-cas2'));
    expect(cas.validations.at(-1)).toMatch(/^\/cas\/serviceValidate\?/);
    const memberships = await membershipsOf(signedIn.auth);
    expect(memberships.classes).toEqual([]);
    expect(memberships.schools).toEqual([]);
  });

  test('a signed-in account links its school identity to itself; later school sign-ins are that account', async () => {
    const { code } = await schoolWithCas();
    const own = await signUp(server);
    const linked = await signInWithSchool(code, pupil('S-linked'), { token: own.token, link: true });
    expect(linked.landed).toBe(`${server.url}/account`);
    const later = await signInWithSchool(code, pupil('S-linked'));
    const me = await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: later.auth ?? '' } });
    edu.ok(me);
    const session = await server.app.ctx.db
      .selectFrom('sessions')
      .select('user_id')
      .where('method', '=', 'school_cas')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(session.user_id)).toBe(own.userId);
    // Linking asks for the account's own sign-in first.
    const start = new URL(routes.startSchoolSignIn.path.replace(':code', code), server.url);
    start.searchParams.set('redirect', `${server.url}/account`);
    start.searchParams.set('link', '1');
    expectError(await call('GET', `${start.pathname}${start.search}`), 'E_0');
    // Another account cannot take an identity that is linked already.
    const other = await signUp(server);
    const taken = await signInWithSchool(code, pupil('S-linked'), { token: other.token, link: true });
    expect(taken.auth).toBeUndefined();
    expect(taken.landed).toContain('error=refused');
  });

  test('an identity linked before keys were one per school (moved by migration 047 with its older hash) is found, and its key becomes the school’s', async () => {
    const { schoolId, code } = await schoolWithCas();
    const first = await signInWithSchool(code, pupil('S-before-047'));
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    const account = await me(first.auth);
    // As migration 047 left it: the connector's own hash of the subject, under the connector's school.
    const { db, keys } = server.app.ctx;
    const connectorId = await edu.connectorId(code);
    const older = hmac(keys.identifiers, `school-subject:${connectorId}:S-before-047`);
    await db.updateTable('school_person_keys').set({ key_hash: older }).where('user_id', '=', account).execute();
    const again = await signInWithSchool(code, pupil('S-before-047'));
    expect(await me(again.auth)).toBe(account);
    const rows = await db.selectFrom('school_person_keys').selectAll().where('user_id', '=', account).execute();
    expect(rows.map((r) => [Number(r.school_id), r.key_hash])).toEqual([
      [schoolId, schoolKeyOf(keys.identifiers, schoolId, 'S-before-047')],
    ]);
  });

  test('one school number on two accounts made before the keys were one (a roster pupil, the older sign-in) is listed for the school admin to merge, and forgotten once merged', async () => {
    const admin = await signUp(server);
    const { schoolId, code } = await schoolWithCas(undefined, '3.0', {}, true, admin.userId);
    const me = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;
    // As the accounts were left: the older sign-in's account under the connector's own hash of the
    // school number, and a roster pupil (made by a teacher here) under the school's key of it.
    const signedInBefore = await me((await signInWithSchool(code, pupil('S-two-keys'))).auth);
    const { db, keys } = server.app.ctx;
    const older = hmac(keys.identifiers, `school-subject:${await edu.connectorId(code)}:S-two-keys`);
    await db.updateTable('school_person_keys').set({ key_hash: older }).where('user_id', '=', signedInBefore).execute();
    const classId = await edu.createClass(admin, schoolId, '高一(3)班');
    const [rostered] = await edu.createPupils(admin, classId, ['李小华']);
    if (!rostered) throw new Error('no pupil');
    await db
      .insertInto('school_person_keys')
      .values({
        school_id: schoolId,
        key_hash: schoolKeyOf(keys.identifiers, schoolId, 'S-two-keys'),
        user_id: rostered.user_id,
        source: 'roster',
        created_at: Date.now(),
      })
      .execute();
    const listed = async () =>
      edu.ok<PupilDuplicates>(
        await call('GET', pathOf(routes.pupilDuplicates.path, { id: schoolId }), undefined, { token: admin.token }),
      ).groups;
    // Names differ (李华, 李小华): nothing to list until a sign-in holds the number in clear.
    expect(await listed()).toEqual([]);
    // The pupil signs in with the school: the school's key wins, and the two accounts are listed as one number.
    expect(await me((await signInWithSchool(code, pupil('S-two-keys'))).auth)).toBe(rostered.user_id);
    const groups = await listed();
    expect(groups.map((g) => [g.reasons, g.accounts.map((a) => [a.user_id, a.name]).sort()])).toEqual([
      [
        ['same_school_number'],
        [
          [rostered.user_id, '李小华'],
          [signedInBefore, '李华'],
        ].sort(),
      ],
    ]);
    // A second sign-in records nothing twice.
    await signInWithSchool(code, pupil('S-two-keys'));
    expect(await listed()).toHaveLength(1);
    // The admin keeps the roster's account; the other ends, the pair is forgotten, its key joins the kept one.
    edu.ok(
      await call(
        'POST',
        pathOf(routes.mergePupils.path, { id: schoolId }),
        { keep: rostered.user_id, end: signedInBefore },
        { token: admin.token },
      ),
    );
    expect(await listed()).toEqual([]);
    expect(await db.selectFrom('school_number_pairs').selectAll().where('school_id', '=', schoolId).execute()).toEqual(
      [],
    );
    expect(await me((await signInWithSchool(code, pupil('S-two-keys'))).auth)).toBe(rostered.user_id);
  });

  test('single logout from the school’s CAS server ends the EduPass session', async () => {
    const { code } = await schoolWithCas();
    const signedIn = await signInWithSchool(code, pupil('S-logout'));
    edu.ok(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: signedIn.auth ?? '' } }));
    expect(await cas.logout(signedIn.ticket)).toBe(204);
    // Ended at once: the session is gone when the school's request is answered.
    expectError(
      await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: signedIn.auth ?? '' } }),
      'E_0',
    );
    // The hourly sweep keeps the sign-ins of live sessions only: one signed out here goes.
    const out = await signInWithSchool(code, pupil('S-signs-out'));
    expect((await call('POST', `${A}/logout`, {}, { headers: { cookie: out.auth ?? '' } })).status).toBe(204);
    const live = await signInWithSchool(code, pupil('S-still-in'));
    const rows = async () =>
      (
        await server.app.ctx.db
          .selectFrom('school_sign_ins')
          .innerJoin('school_connectors', 'school_connectors.id', 'school_sign_ins.connector_id')
          .select('school_sign_ins.user_id')
          .where('school_connectors.code', '=', code)
          .execute()
      ).length;
    expect(await rows()).toBe(2);
    await sweepOnce(server.app.ctx);
    expect(await rows()).toBe(1);
    expect(await cas.logout(live.ticket)).toBe(204);
    expectError(
      await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: live.auth ?? '' } }),
      'E_0',
    );
    // The same request again, or one naming no ticket of ours, changes nothing and says nothing.
    expect(await cas.logout(signedIn.ticket)).toBe(204);
    const junk = await call('POST', pathOf(routes.schoolSingleLogout.path.replace(':code', code), {}), {
      logoutRequest: '<not-xml',
    });
    expectError(junk, 'E_1');
  });
});

/** The school's single-logout request for `ticket`, posted from `localAddress` (another loopback address: not the CAS server's). */
const logoutFrom = (service: string, ticket: string, localAddress: string) =>
  new Promise<number>((resolve, reject) => {
    const body = new URLSearchParams({ logoutRequest: logoutRequestDocument(ticket) }).toString();
    const sent = httpRequest(
      service,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });

describe('single logout from anyone but the CAS server', () => {
  test('a stranger who read the ticket off a screen cannot end the pupil’s session', async () => {
    const { code } = await schoolWithCas();
    const signedIn = await signInWithSchool(code, pupil('S-stranger-logout'));
    const service = cas.tickets.find((t) => t.ticket === signedIn.ticket)?.service ?? '';
    warnings.length = 0;
    // Same answer as any request (nothing learned), but the session lives on and the refusal is logged.
    expect(await logoutFrom(service, signedIn.ticket, '127.0.0.2')).toBe(204);
    edu.ok(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: signedIn.auth ?? '' } }));
    expect(warnings.join('\n')).toContain(
      "CAS single logout refused: the request did not come from the school's CAS server",
    );
    // The CAS server itself still ends it.
    expect(await cas.logout(signedIn.ticket)).toBe(204);
    expectError(
      await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: signedIn.auth ?? '' } }),
      'E_0',
    );
  });
});

describe('shared computers: the school’s password at every sign-in (force_sign_in)', () => {
  test('the CAS login and the validation ask for renew; a ticket from the CAS session is refused', async () => {
    const shared = await schoolWithCas(undefined, '3.0', { force_sign_in: true });
    const usual = await schoolWithCas();
    const renewOf = (query: URLSearchParams | string | undefined) =>
      new URLSearchParams(typeof query === 'string' ? query.slice(query.indexOf('?')) : query).get('renew');
    // The last pupil's CAS session is still open on this computer.
    cas.singleSignOn = true;
    try {
      const next = await signInWithSchool(shared.code, pupil('S-shared-next'));
      expect(next.auth).toMatch(/^authorization=./);
      expect(renewOf(cas.logins.at(-1))).toBe('true');
      expect(renewOf(cas.validations.at(-1))).toBe('true');
      // A CAS server that answers from its session all the same: its ticket fails the renew validation.
      cas.ignoresRenew = true;
      const fromSession = await signInWithSchool(shared.code, pupil('S-shared-last'));
      expect(fromSession.auth).toBeUndefined();
      expect(fromSession.landed).toBe(`${server.url}/?school=${shared.code}&error=refused`);
      expect(warnings.map((line) => JSON.parse(line))).toContainEqual(
        expect.objectContaining({
          msg: 'school CAS refused a service ticket',
          connector: shared.code,
          code: 'INVALID_TICKET_SPEC',
        }),
      );
      // Without the setting, the CAS session signs in (single sign-on, the school's choice).
      const sso = await signInWithSchool(usual.code, pupil('S-usual'));
      expect(sso.auth).toMatch(/^authorization=./);
      expect(renewOf(cas.logins.at(-1))).toBeNull();
      expect(renewOf(cas.validations.at(-1))).toBeNull();
    } finally {
      cas.singleSignOn = false;
      cas.ignoresRenew = false;
    }
  });

  test('the setting is shown, edited (audited by name) and checked', async () => {
    const { schoolId, code } = await schoolWithCas();
    const token = await edu.operatorToken();
    const listed = async () =>
      edu
        .ok<{ code: string; settings: Record<string, unknown> }[]>(
          await call('GET', routes.listSchoolConnectors.path, undefined, { token }),
        )
        .find((c) => c.code === code);
    expect((await listed())?.settings.force_sign_in).toBe(false);
    const id = await edu.connectorId(code);
    const edit = (settings: Record<string, unknown>) =>
      call('PATCH', pathOf(routes.editSchoolConnector.path, { id }), { settings }, { token });
    edu.ok(await edit({ force_sign_in: true }));
    expect((await listed())?.settings.force_sign_in).toBe(true);
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['detail'])
      .where('target', '=', `school:${schoolId}`)
      .where('action', '=', 'school.connector.settings')
      .execute();
    expect(audit.map((row) => row.detail)).toEqual([`cas ${code}: force_sign_in`]);
    for (const wrong of ['yes', 1, {}]) {
      const refused = await edit({ force_sign_in: wrong });
      expectError(refused, 'E_1');
      expect(refused.body).toMatchObject({ error_message: 'settings.force_sign_in must be true or false.' });
    }
    expect((await listed())?.settings.force_sign_in).toBe(true);
  });
});

describe('signing out at the school’s CAS server too (sign_out_at_school)', () => {
  const signOutAddress = (auth: string | undefined) =>
    call('POST', routes.schoolSignOut.path, undefined, { headers: { cookie: auth ?? '' } });
  const signedOutPage = () => `${server.url}/?notice=signed-out`;

  test('the address is the CAS logout, which ends the CAS session and comes back to the sign-in screen', async () => {
    const three = await schoolWithCas(undefined, '3.0', { sign_out_at_school: true });
    const signedIn = await signInWithSchool(three.code, pupil('S-sign-out-3'));
    const url = edu.ok<{ url: string }>(await signOutAddress(signedIn.auth)).url;
    expect(url).toBe(`${cas.url}/logout?service=${encodeURIComponent(signedOutPage())}`);
    cas.singleSignOn = true;
    const back = await fetch(url, { redirect: 'manual' });
    expect(redirectTarget(back)).toBe(signedOutPage());
    expect(cas.singleSignOn).toBe(false);
    // CAS 2.0 servers read `url`.
    const two = await schoolWithCas(undefined, '2.0', { sign_out_at_school: true });
    const twoSignedIn = await signInWithSchool(two.code, pupil('S-sign-out-2'));
    expect(edu.ok<{ url: string }>(await signOutAddress(twoSignedIn.auth)).url).toBe(
      `${cas.url}/logout?url=${encodeURIComponent(signedOutPage())}`,
    );
  });

  test('no address without the setting, for a session not from a school, or once the connector is off; none at all signed out', async () => {
    const usual = await schoolWithCas();
    const signedIn = await signInWithSchool(usual.code, pupil('S-sign-out-none'));
    expect(edu.ok<{ url: string }>(await signOutAddress(signedIn.auth)).url).toBe('');
    const user = await signUp(server);
    expect(
      edu.ok<{ url: string }>(await call('POST', routes.schoolSignOut.path, undefined, { token: user.token })).url,
    ).toBe('');
    const off = await schoolWithCas(undefined, '3.0', { sign_out_at_school: true });
    const offSignedIn = await signInWithSchool(off.code, pupil('S-sign-out-off'));
    const id = await edu.connectorId(off.code);
    edu.ok(
      await call(
        'PATCH',
        pathOf(routes.editSchoolConnector.path, { id }),
        { enabled: false },
        { token: await edu.operatorToken() },
      ),
    );
    expect(edu.ok<{ url: string }>(await signOutAddress(offSignedIn.auth)).url).toBe('');
    expectError(await call('POST', routes.schoolSignOut.path), 'E_0');
  });
});

describe('what is refused', () => {
  test('a replayed ticket, a ticket for another service and a return without the starting browser', async () => {
    const { code } = await schoolWithCas();
    const first = await signInWithSchool(code, pupil('S-replay'));
    expect(first.auth).toBeDefined();
    // The browser's address bar replayed: the CAS server refuses the spent ticket (and the state is spent too).
    const finish = new URL(cas.tickets.at(-1)?.service ?? '');
    finish.searchParams.set('ticket', first.ticket);
    const replay = await fetch(finish, { redirect: 'manual', headers: { accept: 'application/json' } });
    expect(replay.status).toBe(400);
    // A ticket issued for another school's service, brought to this one with this browser's state.
    const other = await schoolWithCas();
    const start = new URL(routes.startSchoolSignIn.path.replace(':code', other.code), server.url);
    start.searchParams.set('redirect', `${server.url}/account`);
    const started = await fetch(start, { redirect: 'manual', headers: { accept: 'text/html' } });
    const service = new URL(redirectTarget(started)).searchParams.get('service') ?? '';
    cas.signInAs(pupil('S-elsewhere'));
    const issued = new URL(
      redirectTarget(
        await fetch(`${cas.url}/login?service=${encodeURIComponent(finish.toString())}`, { redirect: 'manual' }),
      ),
    );
    const crossed = new URL(service);
    crossed.searchParams.set('ticket', issued.searchParams.get('ticket') ?? '');
    const wrongService = await fetch(crossed, {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: cookieSet(started, 'edupass_school') ?? '' },
    });
    expect(redirectTarget(wrongService)).toBe(`${server.url}/?school=${other.code}&error=refused`);
    expect(cookieSet(wrongService, 'authorization')).toBeUndefined();
    // A return that this browser did not start (login CSRF): no state cookie.
    const forced = await signInWithSchool(code, pupil('S-attacker'), { keepCookie: false });
    expect(forced.auth).toBeUndefined();
    expect(forced.landed).toBe(`${server.url}/?school=${code}&error=expired`);
  });

  test('an unknown connector is E_2; a redirect off the site is refused', async () => {
    expectError(await call('GET', `/edu/school-sign-in/nope/start?redirect=${encodeURIComponent(server.url)}`), 'E_2');
    const { code } = await schoolWithCas();
    expectError(
      await call('GET', `/edu/school-sign-in/${code}/start?redirect=${encodeURIComponent('https://evil.example/')}`),
      'E_1',
    );
  });

  test('the chooser lists enabled connectors by school name, without settings', async () => {
    const { code } = await schoolWithCas();
    const list = edu.ok<{ code: string; name: string; school_name: string }[]>(
      await call('GET', routes.schoolChoices.path),
    );
    expect(list).toContainEqual({ code, name: '第一中学统一身份认证', school_name: '第一中学' });
    expect(JSON.stringify(list)).not.toContain(cas.url);
  });

  test('an operator switches a connector off (left out of the chooser, its sign-ins E_2) and on again', async () => {
    const { code } = await schoolWithCas();
    const operator = await edu.operatorToken();
    const id = await edu.connectorId(code);
    const switchTo = (enabled: unknown) =>
      call('PATCH', pathOf(routes.editSchoolConnector.path, { id }), { enabled }, { token: operator });
    expect(edu.ok<{ enabled: boolean }>(await switchTo(false)).enabled).toBe(false);
    const choices = async () =>
      edu.ok<{ code: string }[]>(await call('GET', routes.schoolChoices.path)).map((c) => c.code);
    expect(await choices()).not.toContain(code);
    const start = `/edu/school-sign-in/${code}/start?redirect=${encodeURIComponent(server.url)}`;
    expectError(await call('GET', start), 'E_2');
    expectError(await switchTo('no'), 'E_1');
    expectError(
      await call(
        'PATCH',
        pathOf(routes.editSchoolConnector.path, { id: 999_999 }),
        { enabled: true },
        { token: operator },
      ),
      'E_2',
    );
    expect(edu.ok<{ enabled: boolean }>(await switchTo(true)).enabled).toBe(true);
    expect(await choices()).toContain(code);
    const audit = await server.app.ctx.db.selectFrom('admin_audit').select('action').execute();
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['school.connector.disable', 'school.connector.enable']),
    );
  });

  test('an operator’s connector is checked: kind, code, https server, mapping keys', async () => {
    const schoolId = await edu.addSchool('第二中学');
    const add = async (body: Record<string, unknown>) =>
      call('POST', pathOf(routes.addSchoolConnector.path, { id: schoolId }), body, {
        token: await edu.operatorToken(),
      });
    const good = {
      code: 'erzhong',
      kind: 'cas',
      name: '二中',
      settings: { server_url: 'https://cas.erzhong.edu.cn/cas' },
    };
    expectError(await add({ ...good, kind: 'ldap' }), 'E_1');
    expectError(await add({ ...good, code: 'Bad Code!' }), 'E_1');
    expectError(await add({ ...good, settings: { server_url: 'http://cas.erzhong.edu.cn/cas' } }), 'E_1');
    expectError(await add({ ...good, mapping: { colour: 'blue' } }), 'E_1');
    const added = edu.ok<{ code: string; mapping: { role_attribute: string } }>(await add(good));
    expect(added.mapping.role_attribute).toBe('affiliation');
    expectError(await add(good), 'E_1');
    // Not an operator: refused.
    const user = await signUp(server);
    expectError(
      await call(
        'POST',
        pathOf(routes.addSchoolConnector.path, { id: schoolId }),
        { ...good, code: 'x2' },
        { token: user.token },
      ),
      'E_4',
    );
  });

  test('an operator edits a connector’s name and CAS server: checked as when added, audited, identity links kept', async () => {
    const { code } = await schoolWithCas();
    const operator = await edu.operatorToken();
    const id = await edu.connectorId(code);
    const edit = (body: unknown) =>
      call('PATCH', pathOf(routes.editSchoolConnector.path, { id }), body, { token: operator });
    const first = await signInWithSchool(code, pupil('edit-cas-01'));
    const accountOf = async (auth: string | undefined) =>
      edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
        .id;

    expectError(await edit({}), 'E_1');
    expectError(await edit({ settings: { server_url: 'http://cas.example.edu.cn/cas' } }), 'E_1');
    expectError(await edit({ settings: { version: '4.0' } }), 'E_1');
    expectError(await edit({ settings: 'text' }), 'E_1');
    expectError(await edit({ name: '   ' }), 'E_1');
    expectError(await edit({ settings: { client_secret: 'not for CAS' } }), 'E_1');
    expectError(await edit({ settings: { client_secret_sealed: 'forged' } }), 'E_1');
    expectError(await edit({ code: 'another-code' }), 'E_1');
    expectError(await edit({ kind: 'saml' }), 'E_1');
    // Keys the settings do not have change nothing and are not named in the audit log.
    expect(edu.ok<{ name: string }>(await edit({ settings: { colour: 'blue' } })).name).toBe('第一中学统一身份认证');
    expectError(
      await call('PATCH', pathOf(routes.editSchoolConnector.path, { id: 999_999 }), { name: 'x' }, { token: operator }),
      'E_2',
    );
    const user = await signUp(server);
    expectError(
      await call('PATCH', pathOf(routes.editSchoolConnector.path, { id }), { name: 'x' }, { token: user.token }),
      'E_4',
    );

    // The school moved its CAS server: the same people sign in there and are the same accounts.
    const moved = await startCasServer();
    const old = cas;
    try {
      const edited = edu.ok<{ code: string; kind: string; name: string; settings: Record<string, unknown> }>(
        await edit({ name: '第一中学新认证', settings: { server_url: moved.url } }),
      );
      expect(edited).toMatchObject({ code, kind: 'cas', name: '第一中学新认证' });
      expect(edited.settings).toEqual({
        server_url: moved.url,
        version: '3.0',
        force_sign_in: false,
        sign_out_at_school: false,
      });
      cas = moved;
      const again = await signInWithSchool(code, pupil('edit-cas-01'));
      expect(await accountOf(again.auth)).toBe(await accountOf(first.auth));
    } finally {
      cas = old;
      await moved.close();
    }
    const audit = await server.app.ctx.db
      .selectFrom('admin_audit')
      .select(['action', 'detail'])
      .where('action', '=', 'school.connector.settings')
      .execute();
    expect(audit).toContainEqual({ action: 'school.connector.settings', detail: `cas ${code}: name, server_url` });
    expect(audit).toContainEqual({ action: 'school.connector.settings', detail: `cas ${code}: nothing changed` });
  });
});

describe('the age of a pupil who arrives by the school sign-in', () => {
  const ageOf = async (userId: number) =>
    server.app.ctx.db
      .selectFrom('users')
      .select(['age_band', 'consent_state'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  const userOf = async (auth: string | undefined) =>
    edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers: { cookie: auth ?? '' } }))
      .id;

  for (const agreement of [true, false]) {
    test(`lands in a grade-3 class with the band and consent of a pupil its teacher made (${agreement ? 'school agreement' : 'no agreement'})`, async () => {
      const { schoolId, code } = await schoolWithCas(undefined, '3.0', {}, agreement);
      const teacher = await edu.approvedTeacher(schoolId);
      const classId = await edu.createClass(teacher, schoolId, '三年级二班');
      const [made] = await edu.createPupils(teacher, classId, ['王小明']);

      const arrived = await signInWithSchool(code, pupil(`grade3-${agreement}`, '三年级二班'));
      expect((await membershipsOf(arrived.auth)).classes).toEqual([
        expect.objectContaining({ id: classId, role: 'pupil' }),
      ]);
      const age = await ageOf(await userOf(arrived.auth));
      expect(age).toEqual(await ageOf(made?.user_id ?? 0));
      expect(age).toEqual({ age_band: '8_13', consent_state: agreement ? 'school' : 'pending' });
    });
  }

  test('a teacher arriving by the school sign-in, and a pupil naming no class there, are given no band', async () => {
    const { schoolId, code } = await schoolWithCas();
    const head = await edu.approvedTeacher(schoolId);
    await edu.createClass(head, schoolId, '三年级一班');
    const teacher = await signInWithSchool(code, {
      user: 'age-teacher',
      attributes: { displayName: ['张老师'], affiliation: ['faculty'], class: ['三年级一班'] },
    });
    expect(await ageOf(await userOf(teacher.auth))).toEqual({ age_band: null, consent_state: null });
    const classless = await signInWithSchool(code, pupil('age-classless', '不存在的班'));
    expect(await ageOf(await userOf(classless.auth))).toEqual({ age_band: null, consent_state: null });
  });
});

describe('a school pupil whose first sign-in is by the school’s CAS', () => {
  test('a pupil the school’s CAS signs in is not held for the card’s password; signed in by the card, the same account is', async () => {
    const { schoolId, code } = await schoolWithCas();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '高一(5)班');
    const [made] = await edu.createPupils(teacher, classId, ['赵小雪']);
    if (!made) throw new Error('no pupil');
    // The school keys its pupil by the student number its CAS names (as a roster with 学号 does).
    const { db, keys } = server.app.ctx;
    await db
      .insertInto('school_person_keys')
      .values({
        school_id: schoolId,
        key_hash: schoolKeyOf(keys.identifiers, schoolId, 'R-20260105'),
        user_id: made.user_id,
        source: 'roster',
        created_at: Date.now(),
      })
      .execute();
    const arrived = await signInWithSchool(code, pupil('R-20260105', '高一(5)班'));
    const headers = { cookie: arrived.auth ?? '' };
    expect(edu.ok<{ id: number }>(await call('GET', routes.getProfile.path, undefined, { headers })).id).toBe(
      made.user_id,
    );
    // The school proved who the pupil is and no card was used: nothing waits for the card's password.
    expect((await membershipsOf(arrived.auth)).must_change_password).toBe(false);
    expect((await call('GET', routes.listSessions.path, undefined, { headers })).status).toBe(200);
    // Signed in by the card's details, the same account chooses its own password first.
    const byCard = await call('POST', `${A}/login`, {
      identity: made.username,
      password: made.password,
      pid: 'edupass',
    });
    const token = String(expectSignedIn(byCard).auth.token);
    expectError(await call('GET', routes.listSessions.path, undefined, { token }), 'E_17');
    expect(
      edu.ok<EduMemberships>(await call('GET', routes.eduMemberships.path, undefined, { token })).must_change_password,
    ).toBe(true);
  });
});

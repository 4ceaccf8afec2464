/**
 * Signing in with the school's WeCom or DingTalk, through the test kit's stand-ins serving the school
 * whose address book made the roster: by QR code from a browser outside the apps, and silently inside
 * each app's own browser (WeCom's OAuth by its `wxwork/` User-Agent; DingTalk's JSAPI free-login code
 * by its `DingTalk` one, through EduPass's small in-app page). A pupil lands on the roster's account in
 * the right class, a teacher in the classes the book gives; a guardian gets an account of their own
 * and no child (the school's record is not their consent); a code is good once; someone outside the
 * organisation is refused; signing out is EduPass's own.
 */
import { type EduMemberships, routes, SERVER_ERRORS } from '@edupass/protocol';
import { A, expectError, signUp } from '@edupass/test-kit/accounts';
import type { BookPeer } from '@edupass/test-kit/address-book-peers';
import { type SchoolBook, schoolBook } from '@edupass/test-kit/address-book-school';
import { startSchoolBook } from '@edupass/test-kit/address-book-steps';
import { useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { cookieSet, redirectTarget } from '@edupass/test-kit/redirects';
import { afterAll, describe, expect, test } from 'vitest';

// EduPass's public address is the test server's, as the vendors send the browser back to it.
const { server, call } = useOauthTestServer();
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing) await close();
});

const WECOM_UA =
  'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 wxwork/4.1.22 MicroMessenger/7.0.1 Language/zh';
const DINGTALK_UA =
  'Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 Chrome/104.0 Mobile Safari/537.36 AliApp(DingTalk/7.5.0) DingTalk(7.5.0)';

type Vendor = 'wecom' | 'dingtalk';

/** A school whose book is synced and applied, with its work app as the sign-in connector. */
const schoolWithApp = async (vendor: Vendor) => {
  const teacherPhone = (await signUp(server)).phone;
  const book = schoolBook({
    // The app id is `<vendor>-<name>` (address-book-steps.ts): ids the vendors give are ASCII.
    name: `${vendor}-school-${Date.now() % 100_000}`,
    grades: 2,
    // Ten classes, so the book's two subject teachers of a class are two people.
    classesPerGrade: 5,
    pupilsPerClass: 3,
    teacherPhones: [teacherPhone],
    mobilePrefix: vendor === 'wecom' ? '1381' : '1382',
  });
  const school = await startSchoolBook(server, call, vendor, book);
  closing.push(() => school.peer.close());
  const job = await school.sync();
  const applied = await school.confirm(job.id);
  expect(applied.body).toMatchObject({ status: 'applied' });
  const peer = school.peer;
  const config = server.app.ctx.config;
  if (vendor === 'wecom') {
    config.eduWecomLoginUrl = peer.url;
    config.eduWecomOauthUrl = peer.url;
  } else {
    config.eduDingtalkLoginUrl = peer.url;
    config.eduDingtalkOpenApiUrl = peer.url;
    config.eduDingtalkJsapiUrl = `${peer.url}/dingtalk.open.js`;
  }
  const code = `${vendor}-${Date.now() % 1_000_000}`;
  const appId = `${vendor}-${book.name}`;
  const settings =
    vendor === 'wecom'
      ? { vendor, corp_id: 'ww-school', agent_id: '1000002', client_secret: `secret-${book.name}` }
      : { vendor, corp_id: 'dingschool', client_id: appId, client_secret: `secret-${book.name}` };
  // The WeCom stand-in's organisation is the book's app id (its corpid).
  if (vendor === 'wecom') settings.corp_id = appId;
  const added = await call(
    'POST',
    routes.addSchoolConnector.path.replace(':id', String(school.schoolId)),
    { code, kind: 'workapp', name: vendor === 'wecom' ? '企业微信' : '钉钉', settings },
    { token: school.token },
  );
  const connector = school.edu.ok<{ settings: Record<string, unknown> }>(added);
  return { ...school, book, peer, code, connector, teacherPhone };
};

const start = (code: string, userAgent: string) => {
  const url = new URL(`/edu/school-sign-in/${code}/start`, server.url);
  url.searchParams.set('redirect', `${server.url}/account`);
  return fetch(url, { redirect: 'manual', headers: { accept: 'text/html', 'user-agent': userAgent } });
};

/** The sign-in as `userid` by the vendor's redirect (QR code, or WeCom in-app): the vendor's address asked, and where EduPass sends the browser. */
const signIn = async (peer: BookPeer, code: string, userid: string, userAgent = 'Mozilla/5.0 Chrome/130') => {
  peer.signIn.signInAs = userid;
  const started = await start(code, userAgent);
  const vendorUrl = new URL(redirectTarget(started));
  const cookie = cookieSet(started, 'edupass_school') ?? '';
  const back = new URL(redirectTarget(await fetch(vendorUrl, { redirect: 'manual' })));
  const finished = await fetch(back, { redirect: 'manual', headers: { accept: 'text/html', cookie } });
  return { vendorUrl, back, landed: redirectTarget(finished), auth: cookieSet(finished, 'authorization') };
};

const membershipsOf = async (auth: string | undefined) => {
  const answer = await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } });
  expect(answer.status).toBe(200);
  return answer.body as EduMemberships;
};

/** The pupil account the roster made for the book's pupil, and its class's name. */
const rosterPupil = async (schoolId: number, book: SchoolBook, index: number) => {
  const pupil = book.pupils[index] as SchoolBook['pupils'][number];
  const className = book.classes.find((c) => c.id === pupil.classId)?.name;
  // Names are sealed (sealed-records.ts): the school's pupils read, opened, and found by name.
  const rows = await server.app.ctx.db
    .selectFrom('pupil_accounts')
    .select(['pupil_accounts.user_id', 'pupil_accounts.display_name'])
    .where('pupil_accounts.school_id', '=', schoolId)
    .execute();
  const row = rows.find((r) => r.display_name === pupil.name);
  if (row === undefined) throw new Error(`no pupil account named ${pupil.name}`);
  return { pupil, userId: Number(row.user_id), className };
};

/** The account the sign-in that set `auth` signed in (its school sign-in's record). */
const whoAmI = async (auth: string | undefined) => {
  expect(auth).toBeDefined();
  const row = await server.app.ctx.db
    .selectFrom('school_sign_ins')
    .select('user_id')
    .orderBy('created_at', 'desc')
    .orderBy('user_id', 'desc')
    .executeTakeFirstOrThrow();
  return Number(row.user_id);
};

describe.each(['wecom', 'dingtalk'] as const)('%s as the school sign-in', (vendor) => {
  test('by QR code: a pupil lands on the roster’s account in its class, a teacher in theirs, a guardian with no child; sign out', async () => {
    const school = await schoolWithApp(vendor);
    expect(school.connector.settings).toMatchObject({
      vendor,
      redirect_uri: expect.stringContaining(`/${school.code}/app`),
    });
    expect(school.connector.settings).not.toHaveProperty('client_secret_sealed');

    const { pupil, userId, className } = await rosterPupil(school.schoolId, school.book, 7);
    const first = await signIn(school.peer, school.code, pupil.id);
    if (vendor === 'wecom') {
      expect(first.vendorUrl.pathname).toBe('/wwlogin/sso/login');
      expect(first.vendorUrl.searchParams.get('login_type')).toBe('CorpApp');
      expect(first.vendorUrl.searchParams.get('agentid')).toBe('1000002');
    } else {
      expect(first.vendorUrl.pathname).toBe('/oauth2/auth');
      expect(Object.fromEntries(first.vendorUrl.searchParams)).toMatchObject({
        response_type: 'code',
        scope: 'openid',
        prompt: 'consent',
      });
      expect(first.back.searchParams.get('authCode')).not.toBeNull();
    }
    expect(first.vendorUrl.searchParams.get('redirect_uri')).toBe(school.connector.settings.redirect_uri);
    expect(first.landed).toBe(`${server.url}/account`);
    expect(await whoAmI(first.auth)).toBe(userId);
    const pupilOf = await membershipsOf(first.auth);
    expect(pupilOf.classes).toEqual([expect.objectContaining({ name: className, role: 'pupil' })]);

    // The teacher the book matched by mobile: the teacher's account, in the classes the book gives.
    const teacher = school.book.teachers.find((t) => t.mobile === school.teacherPhone);
    const teaching = await signIn(school.peer, school.code, teacher?.id ?? '');
    const teacherOf = await membershipsOf(teaching.auth);
    expect(teacherOf.schools).toEqual([expect.objectContaining({ id: school.schoolId, role: 'teacher' })]);
    expect(teacherOf.classes.length).toBeGreaterThan(0);

    // A guardian the book lists: an account of their own, no child and no school until they confirm by SMS.
    const guardian = school.book.guardians.find((g) => g.pupilId === pupil.id);
    const parent = await signIn(school.peer, school.code, guardian?.id ?? '');
    expect(parent.auth).toBeDefined();
    const parentId = await whoAmI(parent.auth);
    expect(parentId).not.toBe(userId);
    expect((await membershipsOf(parent.auth)).schools).toEqual([]);
    const links = await server.app.ctx.db
      .selectFrom('guardians')
      .select('child_id')
      .where('guardian_id', '=', parentId)
      .execute();
    expect(links).toEqual([]);
    // The same guardian again: the same account.
    expect(await whoAmI((await signIn(school.peer, school.code, guardian?.id ?? '')).auth)).toBe(parentId);

    // Signing out is EduPass's own: nowhere to go at the vendor, and the session ends.
    const out = await call('POST', routes.schoolSignOut.path, {}, { headers: { cookie: teaching.auth ?? '' } });
    expect(out.body).toEqual({ url: '' });
    for (const auth of [teaching.auth, first.auth]) {
      expect((await call('POST', `${A}/logout`, {}, { headers: { cookie: auth ?? '' } })).status).toBe(204);
      expectError(await call('GET', routes.eduMemberships.path, undefined, { headers: { cookie: auth ?? '' } }), 'E_0');
    }
  });

  test('silently inside the app’s own browser, by its User-Agent', async () => {
    const school = await schoolWithApp(vendor);
    const { pupil, userId } = await rosterPupil(school.schoolId, school.book, 12);
    school.peer.signIn.signInAs = pupil.id;
    if (vendor === 'wecom') {
      const inApp = await signIn(school.peer, school.code, pupil.id, WECOM_UA);
      expect(inApp.vendorUrl.pathname).toBe('/connect/oauth2/authorize');
      expect(inApp.vendorUrl.searchParams.get('scope')).toBe('snsapi_base');
      expect(inApp.vendorUrl.hash).toBe('#wechat_redirect');
      expect(await whoAmI(inApp.auth)).toBe(userId);
      return;
    }
    // DingTalk: EduPass's page asks the JSAPI for a free-login code (here as the page's script would).
    const started = await start(school.code, DINGTALK_UA);
    expect(started.status).toBe(200);
    const page = await started.text();
    expect(page).toContain(`${school.peer.url}/dingtalk.open.js`);
    expect(page).toContain('requestAuthCode');
    expect(started.headers.get('content-security-policy')).toContain(`script-src 'nonce-`);
    const cookie = cookieSet(started, 'edupass_school') ?? '';
    const back = new URL(/var back = "([^"]+)"/.exec(page)?.[1] ?? '');
    const js = await (await fetch(`${school.peer.url}/dingtalk.open.js`)).text();
    const authCode = /code: "([0-9a-f]+)"/.exec(js)?.[1] ?? '';
    back.searchParams.set('auth_code', authCode);
    const finished = await fetch(back, { redirect: 'manual', headers: { accept: 'text/html', cookie } });
    expect(await whoAmI(cookieSet(finished, 'authorization'))).toBe(userId);
    // The code was spent: a second use is refused (40078), and the browser hears so.
    const again = await start(school.code, DINGTALK_UA);
    const state = new URL(/var back = "([^"]+)"/.exec(await again.text())?.[1] ?? '').searchParams.get('state') ?? '';
    const replay = new URL(back);
    replay.searchParams.set('state', state);
    const refused = await fetch(replay, {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: cookieSet(again, 'edupass_school') ?? '' },
    });
    expect(redirectTarget(refused)).toContain('error=refused');
  });

  test('a spent code and someone outside the school’s organisation are refused', async () => {
    const school = await schoolWithApp(vendor);
    const round = await signIn(school.peer, school.code, school.book.pupils[0]?.id ?? '');
    expect(round.auth).toBeDefined();
    // Replayed: the vendor answers 40029 (WeCom) / invalidAuthCode (DingTalk).
    const started = await start(school.code, 'Mozilla/5.0');
    const replay = new URL(round.back);
    replay.searchParams.set('state', new URL(redirectTarget(started)).searchParams.get('state') ?? '');
    const refused = await fetch(replay, {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: cookieSet(started, 'edupass_school') ?? '' },
    });
    expect(redirectTarget(refused)).toContain(`school=${school.code}&error=refused`);
    const outsider = await signIn(school.peer, school.code, 'someone-else');
    expect(outsider.auth).toBeUndefined();
    expect(outsider.landed).toContain('error=refused');
  });
});

describe.each(['wecom', 'dingtalk'] as const)('%s: a first sign-in and its edges', (vendor) => {
  test('a roster pupil the work app signs in is not held for a card’s password it never had', async () => {
    const school = await schoolWithApp(vendor);
    const { pupil, userId } = await rosterPupil(school.schoolId, school.book, 4);
    const round = await signIn(school.peer, school.code, pupil.id);
    expect(await whoAmI(round.auth)).toBe(userId);
    const headers = { cookie: round.auth ?? '' };
    // The school's organisation proved who the pupil is: the account is the pupil's to use at once.
    expect((await membershipsOf(round.auth)).must_change_password).toBe(false);
    expect((await call('GET', routes.listSessions.path, undefined, { headers })).status).toBe(200);
  });

  test('one code brought back at the same moment by two browsers: one signs in, the other is refused, one account', async () => {
    const school = await schoolWithApp(vendor);
    const guardian = school.book.guardians[2] as SchoolBook['guardians'][number];
    school.peer.signIn.signInAs = guardian.id;
    const users = async () =>
      Number(
        (
          await server.app.ctx.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await users();
    // Two browsers start (each its own state), the vendor answers one of them with a code.
    const starts = await Promise.all([start(school.code, 'Mozilla/5.0 A'), start(school.code, 'Mozilla/5.0 B')]);
    const vendorUrl = new URL(redirectTarget(starts[0] as Response));
    const back = new URL(redirectTarget(await fetch(vendorUrl, { redirect: 'manual' })));
    const finishes = await Promise.all(
      starts.map((started) => {
        const url = new URL(back);
        url.searchParams.set('state', new URL(redirectTarget(started)).searchParams.get('state') ?? '');
        const cookie = cookieSet(started, 'edupass_school') ?? '';
        return fetch(url, { redirect: 'manual', headers: { accept: 'text/html', cookie } });
      }),
    );
    const signedIn = finishes.filter((f) => cookieSet(f, 'authorization') !== undefined);
    expect(signedIn).toHaveLength(1);
    const refused = finishes.find((f) => cookieSet(f, 'authorization') === undefined) as Response;
    expect(refused.status).toBe(302);
    expect(redirectTarget(refused)).toBe(`${server.url}/?school=${school.code}&error=refused`);
    // The guardian's account was made once.
    expect(await users()).toBe(before + 1);
  });

  test('a return without the state cookie is refused with AC3_16, never a 500 (a browser lands on the sign-in page)', async () => {
    const school = await schoolWithApp(vendor);
    school.peer.signIn.signInAs = school.book.pupils[1]?.id ?? '';
    const started = await start(school.code, 'Mozilla/5.0');
    const back = new URL(redirectTarget(await fetch(new URL(redirectTarget(started)), { redirect: 'manual' })));
    const program = await fetch(back, { redirect: 'manual', headers: { accept: 'application/json' } });
    expect(program.status).toBe(SERVER_ERRORS.AC3_16.status);
    expect(((await program.json()) as { error_code: string }).error_code).toBe('AC3_16');
    const browser = await fetch(back, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(redirectTarget(browser)).toBe(`${server.url}/?school=${school.code}&error=expired`);
    expect(cookieSet(browser, 'authorization')).toBeUndefined();
  });
});

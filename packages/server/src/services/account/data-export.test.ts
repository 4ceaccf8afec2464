/**
 * A copy of my data, over HTTP on the real server: a child with every kind of data (agreements, a
 * guardian's consent and link, a class joined by code with a classmate, a teacher's reads, an S3
 * picture, sessions, an application's grant, security events, an operator's action, usage events in
 * whichever store the run configures — ClickHouse included) asks after a fresh proof; the worker
 * builds the zip; its link works once and only within DATA_EXPORT_LINK_HOURS (a moved clock). Every
 * area is in the zip, and no other person's id, phone or e-mail is. A guardian exports the child's
 * data (the link goes to the guardian's e-mail); an operator's export is audited.
 */
import { type DataExport, routes } from '@edupass/protocol';
import {
  A,
  type Account,
  agreementIdsInEffect,
  auditorToken,
  codeFor,
  expectError,
  nextEmail,
  PASSWORD,
  PID,
  signIn,
  signUp,
} from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { appTokensFor } from '@edupass/test-kit/oidc-flow';
import { type S3Peer, s3Avatars, startS3Peer } from '@edupass/test-kit/s3-peer';
import { usageEventRow } from '@edupass/test-kit/usage-rows';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

const CALLBACK = 'https://courses.example.com/callback';
const HOUR = 3_600_000;

let peer: S3Peer;
let clock = Date.now();
beforeAll(async () => {
  peer = await startS3Peer();
});
const { server, call } = useTestServer(
  {
    get avatars() {
      return s3Avatars(peer);
    },
  },
  { now: () => clock },
);
const edu = eduSteps(server, call);
beforeAll(() => {
  // The application's sign-in discovers the issuer at the server's own address.
  server.app.ctx.config.publicUrl = server.url;
});
beforeEach(() => {
  clock = Date.now();
});
afterAll(async () => {
  await peer?.close();
});

const bornYearsAgo = (years: number) => {
  const today = new Date();
  return `${today.getUTCFullYear() - years - 1}-${String(today.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** A guardian: an adult's phone account (a guardian signs in with their own phone) with an e-mail added. */
const guardianWithEmail = async () => {
  const guardian = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: bornYearsAgo(40) });
  const email = nextEmail();
  const captcha = await codeFor(server, 'email/captcha/bind', { email, pid: PID }, { token: guardian.token });
  edu.ok(await call('PATCH', `${A}/email/bind`, { email, captcha }, { token: guardian.token }), 204);
  return { ...guardian, email };
};

const stepUp = async (user: Account) =>
  edu.ok(await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: user.token }), 204);

/** Asks for the export as `user` (after a fresh proof), runs the worker, answers the ready export. */
const exportOf = async (ask: () => ReturnType<typeof call<DataExport>>, list: () => ReturnType<typeof call>) => {
  const asked = await ask();
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  expect(asked.body.state).toBe('queued');
  await server.app.exports.runOnce();
  const listed = edu.ok<{ exports: DataExport[] }>(await list());
  const ready = listed.exports.find((e) => e.id === asked.body.id);
  expect(ready).toMatchObject({ state: 'ready', link_expires_at: clock + 24 * HOUR });
  expect(ready?.download_url).toMatch(new RegExp(`^${server.config.publicUrl}/exports/[A-Za-z0-9_-]{43}$`));
  return String(ready?.download_url);
};

/** Keys whose values are people's ids (test-kit person-traces.ts scans the same columns). */
const ID_KEYS =
  /^(id|user_id|subject_id|reader_id|account_id|operator_id|created_by|child_id|guardian_id|requester_id)$/;

/** Every value under an id key, anywhere in a JSON value. */
const idsIn = (value: unknown): unknown[] => {
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (ID_KEYS.test(key) ? [inner] : idsIn(inner)));
};

/** GET of the link on the server (the public URL is the test server's own). */
const download = (url: string) => fetch(`${server.url}${new URL(url).pathname}`);

const unzip = async (answer: Response) => {
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await answer.arrayBuffer()));
};

const ownExport = (user: Account) =>
  exportOf(
    () => call<DataExport>('POST', routes.requestExport.path, { lang: 'en' }, { token: user.token }),
    () => call('GET', routes.listExports.path, undefined, { token: user.token }),
  );

/** A child of 10 (who signed `agreementIds`) whose guardian, with an e-mail, consented as the mother. */
const childWithGuardian = async (agreementIds: number[]) => {
  const child = await signUp(server, undefined, PASSWORD, agreementIds, { birth_year_month: bornYearsAgo(10) });
  const guardian = await guardianWithEmail();
  const link = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  ).link;
  const decision = { link, decision: 'consent', relation: 'mother' };
  edu.ok(await call('POST', routes.decideConsent.path, decision, { token: guardian.token }), 204);
  return { child, guardian };
};

/** A child of 10 with a guardian's consent, in a class with a classmate, with every kind of data. */
const childWithEverything = async () => {
  const { child, guardian } = await childWithGuardian(await agreementIdsInEffect(server));
  // A class, joined by code, with a classmate; the teacher reads the class (the access log).
  const schoolId = await edu.addSchool();
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  const classmate = await signUp(server);
  const code = edu.ok<{ join_code: string }>(
    await call('POST', pathOf(routes.openJoinCode.path, { id: classId }), {}, { token: teacher.token }),
  ).join_code;
  for (const pupil of [child, classmate]) {
    edu.ok(await call('POST', routes.joinClass.path, { join_code: code }, { token: pupil.token }), 204);
    edu.ok(
      await call(
        'POST',
        pathOf(routes.approveJoin.path, { id: classId, user_id: pupil.userId }),
        {},
        { token: teacher.token },
      ),
      204,
    );
  }
  edu.ok(await edu.classDetail(teacher.token, classId));
  // A picture (in the S3 stand-in), another session, an application's grant, usage events.
  const picture = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#22aa66' } })
    .png()
    .toBuffer();
  edu.ok(
    await call(
      'POST',
      `${A}/avatar`,
      { image: `data:image/png;base64,${picture.toString('base64')}` },
      { token: child.token },
    ),
  );
  await signIn(server, child.phone);
  const operator = await edu.operatorToken();
  const app = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] }, operator);
  await server.app.ctx.events.write({
    events: [child, classmate].flatMap((who) =>
      Array.from({ length: 3 }, (_, n) =>
        usageEventRow({
          product_code: 'edupass',
          event_key: 'lesson_open',
          at: clock - n * 1000,
          received_at: clock,
          user_id: String(who.userId),
          device_uid: `device-${who.userId}`,
        }),
      ),
    ),
    beacons: [],
  });
  // A failed sign-in (a security event) and an operator's action on the account.
  await call('POST', `${A}/login`, { identity: child.phone, password: 'not-the-password-1', pid: 'edupass' });
  edu.ok(await call('POST', `/admin/users/${child.userId}/sessions/revoke`, {}, { token: operator }), 204);
  const signedIn = await signIn(server, child.phone);
  const appClient = { id: app.application.client_id, secret: String(app.client_secret) };
  await appTokensFor(server, appClient, CALLBACK, signedIn.access.token);
  return { child: { ...child, token: signedIn.access.token }, guardian, teacher, classmate };
};

describe('a copy of my data', () => {
  test('needs a fresh proof; holds every area and nothing of anyone else; the link works once', async () => {
    const { child, guardian, teacher, classmate } = await childWithEverything();
    // The sign-in is a proof only for a while: later, a new one is asked for.
    clock += (server.config.stepUpSeconds + 60) * 1000;
    expectError(await call('POST', routes.requestExport.path, {}, { token: child.token }), 'E_7');
    await stepUp(child);
    const url = await ownExport(child);

    const files = await unzip(await download(url));
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'access-log.csv',
        'agreements.json',
        'applications.json',
        'avatar.webp',
        'classes.json',
        'consents.json',
        'exports.json',
        'family.json',
        'profile.json',
        'security-events.json',
        'sessions.csv',
        'sign-in-methods.json',
        'usage-events.csv',
      ].sort(),
    );
    const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
    const json = (name: string) => JSON.parse(text(name)) as Record<string, Record<string, unknown>[]>;
    expect(json('profile.json').profile?.[0]).toMatchObject({ id: child.userId, phone: child.phone });
    expect(JSON.stringify(json('profile.json'))).not.toMatch(/password_hash|\$argon2/);
    expect(json('agreements.json').signed?.length).toBeGreaterThan(0);
    expect(json('consents.json').guardian_consents).toEqual([
      expect.objectContaining({ about: 'me', decision: 'granted' }),
    ]);
    expect(json('family.json').links).toEqual([expect.objectContaining({ i_am: 'the_child', relation: 'mother' })]);
    expect(json('classes.json').classes).toEqual([expect.objectContaining({ class: '三年级二班', role: 'pupil' })]);
    expect(json('applications.json').grants).toEqual([expect.objectContaining({ application: 'Courses' })]);
    const security = json('security-events.json');
    expect(security.events?.map((e) => e.event)).toEqual(expect.arrayContaining(['login_failed', 'step_up_passed']));
    expect(security.operator_actions).toEqual([expect.objectContaining({ action: 'user.sessions.revoke' })]);
    expect(text('sessions.csv').split('\r\n').filter(Boolean).length).toBeGreaterThanOrEqual(4);
    expect(text('access-log.csv')).toContain('class_detail');
    const events = text('usage-events.csv').split('\r\n').filter(Boolean);
    expect(events).toHaveLength(1 + 3);
    expect(events.slice(1).every((line) => line.includes(`device-${child.userId}`))).toBe(true);
    expect(files['avatar.webp']?.length).toBeGreaterThan(100);
    expect(text('README.txt')).toContain('usage-events.csv: What was recorded');

    // Nobody else is in it: no column naming a person holds anyone's id but the child's, and no
    // other person's phone, e-mail or device is anywhere.
    const jsonFiles = Object.keys(files).filter((name) => name.endsWith('.json'));
    expect(new Set(jsonFiles.flatMap((name) => idsIn(JSON.parse(text(name)))))).toEqual(new Set([child.userId]));
    for (const name of Object.keys(files).filter((n) => n.endsWith('.csv'))) {
      const header =
        text(name)
          .replace(/^\uFEFF/, '')
          .split('\r\n')[0]
          ?.split(',') ?? [];
      expect(
        header.filter((column) => ID_KEYS.test(column)),
        name,
      ).toEqual([]);
    }
    const all = Object.entries(files)
      .filter(([name]) => name !== 'avatar.webp')
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    for (const other of [teacher.phone, classmate.phone, guardian.email, `device-${classmate.userId}`]) {
      expect(all).not.toContain(other);
    }

    // Once: the second download is refused, and the list says it was used.
    expectError(await call('GET', new URL(url).pathname, undefined), 'E_2');
    const listed = edu.ok<{ exports: DataExport[] }>(
      await call('GET', routes.listExports.path, undefined, { token: child.token }),
    );
    expect(listed.exports[0]).toMatchObject({ state: 'used', download_url: null });
  });

  test('a link fetched four times at once gives its zip to exactly one of them', async () => {
    const user = await signUp(server);
    const url = await ownExport(user);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call('GET', new URL(url).pathname, undefined)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectError(refused, 'E_2');
  });

  test('the link stops working after 24 hours, and the zip is gone', async () => {
    const user = await signUp(server);
    const url = await ownExport(user);
    clock += 24 * HOUR + 1;
    expectError(await call('GET', new URL(url).pathname, undefined), 'E_2');
    const token = (await signIn(server, user.phone)).access.token;
    const listed = edu.ok<{ exports: DataExport[] }>(await call('GET', routes.listExports.path, undefined, { token }));
    expect(listed.exports[0]).toMatchObject({ state: 'expired', download_url: null });
    expectError(await call('GET', '/exports/not-a-link', undefined), 'E_2');
  });

  test("a guardian exports a linked child's data, sent to the guardian's e-mail; nobody else can", async () => {
    const { child, guardian } = await childWithGuardian([-1]);
    const stranger = await signUp(server);
    const path = pathOf(routes.requestChildExport.path, { id: child.userId });
    expectError(await call('POST', path, { lang: 'zh-CN' }, { token: stranger.token }), 'E_2');
    const url = await exportOf(
      () => call<DataExport>('POST', path, { lang: 'zh-CN' }, { token: guardian.token }),
      () => call('GET', path, undefined, { token: guardian.token }),
    );
    const sent = await call<{ text: string }[]>('GET', `/dev/outbox?to=${encodeURIComponent(guardian.email)}`);
    expect(sent.body.some((m) => m.text.includes(url))).toBe(true);
    // The child's own list does not show the guardian's link.
    const own = edu.ok<{ exports: DataExport[] }>(
      await call('GET', routes.listExports.path, undefined, { token: child.token }),
    );
    expect(own.exports).toEqual([]);
    const files = await unzip(await download(url));
    expect(strFromU8(files['README.txt'] ?? new Uint8Array())).toContain('你在 EduPass 的数据副本');
    expect(JSON.parse(strFromU8(files['profile.json'] ?? new Uint8Array())).profile[0].id).toBe(child.userId);
  });

  test("an operator exports a user's data on request, audited", async () => {
    const user = await signUp(server);
    const operator = await edu.operatorToken();
    const path = `/admin/users/${user.userId}/exports`;
    const url = await exportOf(
      () => call<DataExport>('POST', path, {}, { token: operator }),
      () => call('GET', path, undefined, { token: operator }),
    );
    const audit = await call<{ action: string; target: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(audit.body).toContainEqual(
      expect.objectContaining({ action: 'user.export', target: `user:${user.userId}` }),
    );
    expect(Object.keys(await unzip(await download(url)))).toContain('profile.json');
    expectError(await call('POST', '/admin/users/999999999/exports', {}, { token: operator }), 'AC3_3');
    expectError(await call('POST', path, {}, { token: user.token }), 'E_4');
  });

  test('an export a crashed process held is built by another once its lease lapses', async () => {
    const user = await signUp(server);
    // What a process that died while building leaves behind: the row, queued, under its lease.
    const asked = {
      body: await server.app.ctx.db
        .insertInto('data_exports')
        .values({
          user_id: user.userId,
          requested_by: 'user',
          requester_id: user.userId,
          lang: 'en',
          state: 'queued',
          lease_holder: 'crashed',
          lease_until: clock + HOUR,
          created_at: clock,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    };
    await server.app.exports.runOnce();
    const waiting = edu.ok<{ exports: DataExport[] }>(
      await call('GET', routes.listExports.path, undefined, { token: user.token }),
    );
    expect(waiting.exports[0]).toMatchObject({ id: Number(asked.body.id), state: 'queued' });
    clock += HOUR + 1;
    await server.app.exports.runOnce();
    const token = (await signIn(server, user.phone)).access.token;
    const ready = edu.ok<{ exports: DataExport[] }>(await call('GET', routes.listExports.path, undefined, { token }));
    expect(ready.exports[0]).toMatchObject({ id: Number(asked.body.id), state: 'ready' });
  });
});

/**
 * Children under 14 and their guardians' consent, over HTTP against the real server: the age asked at
 * sign-up and the band it gives, the pending account without the community scope (read by a real
 * relying party, openid-client), a guardian's consent from their own phone account, refusal that
 * deletes, withdrawal that freezes at once, the 24-hour single-use link and the 30-day sweep (on a
 * moved clock).
 */
import { COMMUNITY_SCOPE, type ConsentRequest, type GuardianChildren, routes } from '@edupass/protocol';
import {
  type Account,
  expectError,
  PASSWORD,
  PID,
  signAgreementsInEffect,
  signIn,
  signUp,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { signInAtApp } from '@edupass/test-kit/oidc-flow';
import { movableClock } from '@edupass/test-kit/server-clock';
import { startWebhookReceiver, verifiedEvents } from '@edupass/test-kit/webhook-receiver';
import { beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '../../../store/account/users.ts';
import { sweepOnce } from '../../platform/housekeeping.ts';

const { server, call, adoptOwnUrl } = useIssuerServer({
  webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
});
const edu = eduSteps(server, call);
const CALLBACK = 'http://127.0.0.1:7102/callback';
const DAY = 24 * 3_600_000;

const { signUpAged } = edu;

const ownConsent = async (account: Account) =>
  edu.ok<{ age_band: string | null; consent_state: string | null }>(
    await call('GET', routes.ownConsent.path, undefined, { token: account.token }),
  );
const openLink = async (child: Account) =>
  edu.ok<{ link: string; expires_at: number }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  ).link;
const request = (guardian: Account, link: string) =>
  call<ConsentRequest>('POST', routes.consentRequest.path, { link }, { token: guardian.token });
const decide = (guardian: Account, link: string, decision: string, relation = 'mother') =>
  call('POST', routes.decideConsent.path, { link, decision, relation }, { token: guardian.token });

const moveClock = movableClock(server);

describe('the age question at sign-up', () => {
  it('stores the band of the answer; under 14 the account waits for a guardian', async () => {
    expect(await ownConsent(await signUpAged(10))).toEqual({ age_band: '8_13', consent_state: 'pending' });
    expect(await ownConsent(await signUpAged(6))).toEqual({ age_band: 'under_8', consent_state: 'pending' });
    expect(await ownConsent(await signUpAged(14))).toEqual({ age_band: '14_15', consent_state: null });
    expect(await ownConsent(await signUpAged(17))).toEqual({ age_band: '16_17', consent_state: null });
    expect(await ownConsent(await signUpAged(30))).toEqual({ age_band: 'adult', consent_state: null });
    // No answer (a client that does not ask): the age is unknown.
    expect(await ownConsent(await signUp(server))).toEqual({ age_band: null, consent_state: null });
  });

  it('takes the birthday month as not yet reached: 13 years and 11 months is under 14', async () => {
    const today = new Date();
    const thirteen = `${today.getUTCFullYear() - 14}-${String(today.getUTCMonth() + 1).padStart(2, '0')}`;
    const child = await signUp(server, undefined, PASSWORD, [-1], { birth_year_month: thirteen });
    expect(await ownConsent(child)).toEqual({ age_band: '8_13', consent_state: 'pending' });
  });

  it('refuses an answer that is no month, in the future or implausible (E_1), and creates nothing', async () => {
    const next = new Date(Date.now() + 40 * DAY);
    const future = `${next.getUTCFullYear() + 1}-01`;
    for (const bad of ['2015-13', '2015-1', '201501', '1850-06', future, '２０１５-01']) {
      const phone = `1380${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      await call('POST', routes.sendRegisterCode.path, { phone_number: phone, pid: PID });
      const captcha = await server.lastCode(phone);
      const answer = await call('POST', routes.registerByPhone.path, {
        phone_number: phone,
        captcha,
        password: PASSWORD,
        agreement_ids: [-1],
        pid: PID,
        birth_year_month: bad,
      });
      expectError(answer, 'E_1');
      const signedIn = await call('POST', routes.loginByPassword.path, {
        identity: phone,
        password: PASSWORD,
        pid: PID,
      });
      expect(signedIn.status).not.toBe(200);
    }
  });

  it("gives a pupil a teacher created the band of the class's grade, under the school's consent", async () => {
    const schoolId = await edu.addSchool('年龄小学');
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '三年级一班');
    const [pupil] = await edu.createPupils(teacher, classId, ['王小二']);
    if (!pupil) throw new Error('no pupil');
    const { token } = await edu.pupilSession(pupil);
    expect(await ownConsent({ token } as Account)).toEqual({
      age_band: '8_13',
      consent_state: 'school',
    });
  });
});

describe('guardian consent', () => {
  let app: { id: string; secret: string };
  beforeAll(async () => {
    adoptOwnUrl();
    const registered = await registerApp(
      server,
      { name: 'Kids community', redirect_uris: [CALLBACK] },
      await edu.operatorToken(),
    );
    app = { id: registered.application.client_id, secret: String(registered.client_secret) };
  });

  /** The child signs in at the application asking for the community scope: the scopes its token got. */
  const scopesAtApp = async (token: string) => {
    await signAgreementsInEffect(server, token);
    return (await signInAtApp(server, app, CALLBACK, token, `openid profile ${COMMUNITY_SCOPE}`)).scopes;
  };

  it('a pending child has no community scope; after a guardian consents the next token has it', async () => {
    const child = await signUpAged(10);
    expect(await scopesAtApp(child.token)).not.toContain(COMMUNITY_SCOPE);

    const guardian = await signUpAged(38);
    const link = await openLink(child);
    const shown = edu.ok<ConsentRequest>(await request(guardian, link));
    expect(shown.child.age_band).toBe('8_13');
    expect(shown.scopes).toEqual([COMMUNITY_SCOPE]);
    for (const lang of ['zh-CN', 'en'] as const) {
      expect(Object.keys(shown.text[lang]).sort()).toEqual(
        ['data', 'purpose', 'refusal', 'rights', 'security', 'storage'].sort(),
      );
    }
    edu.ok(await decide(guardian, link, 'consent', 'mother'), 204);
    expect(await ownConsent(child)).toMatchObject({ consent_state: 'granted' });
    expect(await scopesAtApp(child.token)).toContain(COMMUNITY_SCOPE);

    const children = edu.ok<GuardianChildren>(
      await call('GET', routes.guardianChildren.path, undefined, { token: guardian.token }),
    );
    expect(children.children).toEqual([
      expect.objectContaining({ id: child.userId, relation: 'mother', consent_state: 'granted', frozen: false }),
    ]);
  });

  it('a link works once: a second decision on it, or a parallel one, is E_2', async () => {
    const child = await signUpAged(9);
    const [first, second] = [await signUpAged(40), await signUpAged(41)];
    const link = await openLink(child);
    const answers = await Promise.all([decide(first, link, 'consent'), decide(second, link, 'consent', 'father')]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 404]);
    expectError(await decide(first, link, 'consent'), 'E_2');
    expectError(await request(first, link), 'E_2');
  });

  it('a link older than 24 hours is refused', async () => {
    const child = await signUpAged(11);
    const guardian = await signUpAged(35);
    const link = await openLink(child);
    // Access tokens live minutes: on the moved clock the guardian signs in again, as they would.
    const later = async (ms: number) => {
      moveClock(ms);
      return { token: (await signIn(server, guardian.phone)).access.token } as Account;
    };
    edu.ok(await request(await later(DAY - 60_000), link));
    const dayAfter = await later(DAY + 1_000);
    expectError(await request(dayAfter, link), 'E_2');
    expectError(await decide(dayAfter, link, 'consent'), 'E_2');
    const childLater = { token: (await signIn(server, child.phone)).access.token } as Account;
    expect(await ownConsent(childLater)).toMatchObject({ consent_state: 'pending' });
  });

  it('only an adult with a phone of their own decides, with a relation from the list', async () => {
    const child = await signUpAged(12);
    const link = await openLink(child);
    expectError(await request(child, link), 'E_1');
    expectError(await request(await signUpAged(15), link), 'E_1');
    const guardian = await signUpAged(36);
    expectError(await decide(guardian, link, 'maybe'), 'E_1');
    expectError(await decide(guardian, link, 'consent', 'neighbour'), 'E_1');
    // None of these spent the link.
    edu.ok(await decide(guardian, link, 'consent', 'grandparent'), 204);
    // An adult has no consent to wait for.
    expectError(await call('POST', routes.openConsentLink.path, {}, { token: guardian.token }), 'E_1');
  });

  it("no one working at the child's school decides, even with a link opened as the pupil; a parent then does", async () => {
    const schoolId = await edu.addSchool('同意小学', undefined, false);
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId, '二年级三班');
    const [pupil] = await edu.createPupils(teacher, classId, ['李小雨']);
    if (!pupil) throw new Error('no pupil');
    // Signed in as the pupil (once the card's password is changed, by whoever holds the card or the new one).
    const asPupil = { token: (await edu.pupilSession(pupil)).token } as Account;
    expect(await ownConsent(asPupil)).toMatchObject({ consent_state: 'pending' });
    const link = await openLink(asPupil);
    expectError(await request(teacher, link), 'E_1');
    const refused = await decide(teacher, link, 'consent');
    expectError(refused, 'E_1');
    expect(JSON.stringify(refused.body)).toContain("Staff of the child's school cannot");
    expect(await ownConsent(asPupil)).toMatchObject({ consent_state: 'pending' });
    edu.ok(await decide(await signUpAged(37), link, 'consent', 'father'), 204);
    expect(await ownConsent(asPupil)).toMatchObject({ consent_state: 'granted' });
  });

  it("refusal deletes the child's account at once, whatever the deletion grace period", async () => {
    const child = await signUpAged(8);
    const guardian = await signUpAged(33);
    const config = server.app.ctx.config as { accountDeletionGraceDays: number };
    const grace = config.accountDeletionGraceDays;
    config.accountDeletionGraceDays = 15;
    try {
      edu.ok(await decide(guardian, await openLink(child), 'refuse', 'father'), 204);
    } finally {
      config.accountDeletionGraceDays = grace;
    }
    // Erased, not frozen for a grace period in which signing in again would keep it.
    expect(await findUserById(server.app.ctx.db, child.userId)).toBeUndefined();
    expectError(await call('GET', routes.ownConsent.path, undefined, { token: child.token }), 'E_0');
    expect(
      (await call('POST', routes.loginByPassword.path, { identity: child.phone, password: PASSWORD, pid: PID })).status,
    ).not.toBe(200);
  });

  it('withdrawal freezes the account and ends its sessions at once; only a linked guardian withdraws', async () => {
    const child = await signUpAged(10);
    const guardian = await signUpAged(39);
    edu.ok(await decide(guardian, await openLink(child), 'consent', 'father'), 204);
    const withdraw = (who: Account) =>
      call('POST', pathOf(routes.withdrawConsent.path, { id: child.userId }), {}, { token: who.token });
    expectError(await withdraw(await signUpAged(45)), 'E_2');
    expect((await ownConsent(child)).consent_state).toBe('granted');

    edu.ok(await withdraw(guardian), 204);
    expectError(await call('GET', routes.ownConsent.path, undefined, { token: child.token }), 'E_0');
    expectError(
      await call(
        'POST',
        routes.loginByPassword.path,
        { identity: child.phone, password: PASSWORD, pid: PID },
        { headers: TOKEN_SET_HEADERS },
      ),
      'AC3_44',
    );
    const children = edu.ok<GuardianChildren>(
      await call('GET', routes.guardianChildren.path, undefined, { token: guardian.token }),
    );
    expect(children.children).toEqual([expect.objectContaining({ consent_state: 'withdrawn', frozen: true })]);
    expectError(await withdraw(guardian), 'E_1');
  });

  it('products hear minor.consent.changed when a guardian consents and when they withdraw', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await edu.webhookEndpoint(receiver.url, ['minor.consent.changed']);
      const child = await signUpAged(10);
      const guardian = await signUpAged(42);
      edu.ok(await decide(guardian, await openLink(child), 'consent'), 204);
      edu.ok(
        await call('POST', pathOf(routes.withdrawConsent.path, { id: child.userId }), {}, { token: guardian.token }),
        204,
      );
      const events = await verifiedEvents(receiver, endpoint.secret, 2);
      expect(events.map((e) => [e.type, e.data.user_id, e.data.consent_state, e.data.age_band])).toEqual([
        ['minor.consent.changed', child.userId, 'granted', '8_13'],
        ['minor.consent.changed', child.userId, 'withdrawn', '8_13'],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('a child left pending for 30 days is deleted by the sweeper; consented and newer ones stay', async () => {
    const stale = await signUpAged(10);
    const consented = await signUpAged(10);
    edu.ok(await decide(await signUpAged(37), await openLink(consented), 'consent'), 204);
    const adult = await signUpAged(25);
    moveClock(30 * DAY + 60_000);
    const fresh = await signUpAged(10);
    await sweepOnce(server.app.ctx);
    const signsIn = async (account: Account) =>
      (
        await call(
          'POST',
          routes.loginByPassword.path,
          { identity: account.phone, password: PASSWORD, pid: PID },
          { headers: TOKEN_SET_HEADERS },
        )
      ).status === 200;
    expect(await signsIn(stale)).toBe(false);
    expect(await server.app.ctx.db.selectFrom('users').select('id').where('id', '=', stale.userId).execute()).toEqual(
      [],
    );
    for (const kept of [consented, adult, fresh]) expect(await signsIn(kept)).toBe(true);
  });
});

/**
 * What an application receives of a child, by the child's consent state and whether the application
 * is the platform's own (first party) or not (third party): the whole table of docs/education.md
 * ("What applications receive"), walked through the real provider with openid-client as both
 * applications, in the ID token and at userinfo. The children are pupils a teacher created (a real
 * name, a username, a class), with a nickname, a picture, a phone and an e-mail address on their
 * account, so every claim has something to leak.
 */
import { MINOR_CLAIMS, routes } from '@edupass/protocol';
import { type Account, nextEmail, nextPhone, signAgreementsInEffect, signIn } from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { eduSteps, pathOf } from '@edupass/test-kit/edu-steps';
import { hiddenFields } from '@edupass/test-kit/html-form';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import {
  authorize,
  complete,
  discover,
  interactionCall,
  interactionOf,
  signInAtApp,
} from '@edupass/test-kit/oidc-flow';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_CLAIMS } from './accounts.ts';

const { server, call, adoptOwnUrl } = useIssuerServer();
const edu = eduSteps(server, call);
const FIRST_CALLBACK = 'http://127.0.0.1:7201/callback';
const THIRD_CALLBACK = 'http://127.0.0.1:7202/callback';
const EVERY_SCOPE = Object.keys(SCOPE_CLAIMS).join(' ');
const EVERY_CLAIM = new Set<string>(Object.values(SCOPE_CLAIMS).flat());

/** What protects the child: the pseudonymous subject, the age band and minor mode, "managed by a school". */
const PROTECTIVE = ['sub', ...MINOR_CLAIMS, 'managed_by_school'];
const PROFILE = ['name', 'nickname', 'picture', 'preferred_username'];
const SCHOOL = ['edu'];
const CONTACT = ['email', 'email_verified', 'phone_number', 'phone_number_verified'];
/** Every claim the test accounts have (`locale` is never set: EduPass keeps no language per user). */
const EVERYTHING = [...PROTECTIVE, ...PROFILE, ...SCHOOL, ...CONTACT];

/** The table of docs/education.md, as the applications see it. */
const TABLE = {
  'no consent needed (an adult)': { first: EVERYTHING, third: EVERYTHING },
  granted: { first: EVERYTHING, third: EVERYTHING },
  school: { first: [...PROTECTIVE, ...PROFILE, ...SCHOOL], third: PROTECTIVE },
  /** A third party the agreement of the pupil's school names, while it stands. */
  'school, the application named in the agreement': {
    first: [...PROTECTIVE, ...PROFILE, ...SCHOOL],
    third: [...PROTECTIVE, ...PROFILE, ...SCHOOL],
  },
  pending: { first: [...PROTECTIVE, ...PROFILE, ...SCHOOL], third: PROTECTIVE },
} as const;
type Row = keyof typeof TABLE;

const PICTURE = 'https://cdn.example.com/avatars/hao.png';

interface Child extends Account {
  name: string;
}

let firstParty: { id: string; secret: string };
let thirdParty: { id: string; secret: string };

const nicknameOf = (userId: number) => `小名${userId}`;

/** Gives the account a nickname, a picture, a verified phone and e-mail: what a family might have added. */
const fillProfile = async (userId: number, phone = nextPhone()) => {
  await server.app.ctx.db
    .updateTable('users')
    .set({
      nickname: nicknameOf(userId),
      avatar_url: PICTURE,
      phone,
      phone_verified: 1,
      email: nextEmail(),
      email_verified: 1,
    })
    .where('id', '=', userId)
    .execute();
  return phone;
};

/** The operator records the school's agreement, naming the third-party applications it covers. */
const recordAgreement = async (schoolId: number, applications: string[]) =>
  edu.ok(
    await call(
      'POST',
      pathOf(routes.recordSchoolAgreement.path, { id: schoolId }),
      { signatory: '校长 王老师', signed_on: '2024-09-01', applications },
      { token: await edu.operatorToken() },
    ),
  );

/**
 * A pupil a teacher created (real name, username, class), in a school with or without its agreement
 * (naming `applications` when given).
 */
const pupil = async (
  name: string,
  schoolAgreement: boolean,
  applications?: string[],
): Promise<Child & { schoolId: number }> => {
  const schoolId = await edu.addSchool(`${name}的小学`, undefined, schoolAgreement && applications === undefined);
  if (applications !== undefined) await recordAgreement(schoolId, applications);
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId, '三年级一班');
  const [created] = await edu.createPupils(teacher, classId, [name]);
  const signedIn = await signIn(server, String(created?.username), created?.password);
  const token = signedIn.access.token;
  const password = 'Lantern5821';
  edu.ok(
    await call(
      'PATCH',
      routes.changePasswordKeepingSession.path,
      { old_password: created?.password, password, confirm_password: password, end_other_sessions: false },
      { token },
    ),
    204,
  );
  await signAgreementsInEffect(server, token);
  const userId = Number(created?.user_id);
  const phone = await fillProfile(userId);
  return { userId, phone, password, token, refresh: signedIn.refresh.token, name, schoolId };
};

const consentState = async (child: Account) =>
  edu.ok<{ consent_state: string | null }>(await call('GET', routes.ownConsent.path, undefined, { token: child.token }))
    .consent_state;

/** A guardian (an adult with a phone of their own) consents from the child's link. */
const guardianConsents = async (child: Account) => {
  const { link } = edu.ok<{ link: string }>(
    await call('POST', routes.openConsentLink.path, {}, { token: child.token }),
  );
  const guardian = await edu.signUpAged(38);
  edu.ok(
    await call(
      'POST',
      routes.decideConsent.path,
      { link, decision: 'consent', relation: 'mother' },
      { token: guardian.token },
    ),
    204,
  );
  return guardian;
};

const personal = (claims: Record<string, unknown>) =>
  Object.keys(claims)
    .filter((key) => EVERY_CLAIM.has(key))
    .sort();

/** The child signs in at `app` asking for every scope: the claims of the ID token and of userinfo. */
const received = async (app: { id: string; secret: string }, callback: string, child: Account) => {
  const signedIn = await signInAtApp(server, app, callback, child.token, EVERY_SCOPE);
  const info = await oidc.fetchUserInfo(signedIn.config, signedIn.tokens.access_token, String(child.userId));
  return { ...signedIn, info, idTokenClaims: personal(signedIn.idToken), userinfoClaims: personal(info) };
};

const expectRow = async (row: Row, child: Child) => {
  for (const party of ['first', 'third'] as const) {
    const app = party === 'first' ? firstParty : thirdParty;
    const got = await received(app, party === 'first' ? FIRST_CALLBACK : THIRD_CALLBACK, child);
    const expected = [...TABLE[row][party]].sort();
    expect(got.idTokenClaims, `${row}, ${party} party, ID token`).toEqual(expected);
    expect(got.userinfoClaims, `${row}, ${party} party, userinfo`).toEqual(expected);
    // Nothing else in userinfo either (it answers the claims only).
    expect(Object.keys(got.info).sort(), `${row}, ${party} party, userinfo`).toEqual(expected);
    if (!expected.includes('name')) {
      for (const claims of [got.info, got.idToken]) {
        const text = JSON.stringify(claims);
        expect(text).not.toContain(child.name);
        expect(text).not.toContain(nicknameOf(child.userId));
        expect(text).not.toContain(child.phone);
        expect(text).not.toContain('三年级一班');
      }
    }
  }
};

beforeAll(async () => {
  adoptOwnUrl();
  const operator = await edu.operatorToken();
  const first = await registerApp(server, { name: 'Courses', redirect_uris: [FIRST_CALLBACK] }, operator);
  firstParty = { id: first.application.client_id, secret: String(first.client_secret) };
  const third = await registerApp(
    server,
    { name: 'Quiz Corner', redirect_uris: [THIRD_CALLBACK], first_party: false },
    operator,
  );
  thirdParty = { id: third.application.client_id, secret: String(third.client_secret) };
});

describe('what applications receive of a child, by consent state', () => {
  it('no consent needed (an adult): everything asked, first and third party alike', async () => {
    const adult = await edu.signUpAged(35);
    await signAgreementsInEffect(server, adult.token);
    await server.app.ctx.db
      .updateTable('users')
      .set({ fullname: '王丽', username: `wangli${adult.userId}`, username_key: `wangli${adult.userId}` })
      .where('id', '=', adult.userId)
      .execute();
    await fillProfile(adult.userId, adult.phone);
    await expectRow('no consent needed (an adult)', { ...adult, name: '王丽' });
  });

  it('pending: a third party gets the subject and the claims that protect the child, nothing that names them', async () => {
    const child = await pupil('张浩然', false);
    expect(await consentState(child)).toBe('pending');
    await expectRow('pending', child);
  });

  it('school: the platform gets the school and profile claims its agreement covers, a third party no more than pending', async () => {
    const child = await pupil('李思琪', true);
    expect(await consentState(child)).toBe('school');
    await expectRow('school', child);
  });

  it('school, named in the agreement: the third party gets what the platform does while the agreement names it', async () => {
    const child = await pupil('周子墨', true, [thirdParty.id]);
    expect(await consentState(child)).toBe('school');
    await expectRow('school, the application named in the agreement', child);
    // A new agreement that no longer names it, and the end of the agreement: back to what protects the child.
    await recordAgreement(child.schoolId, []);
    expect((await received(thirdParty, THIRD_CALLBACK, child)).userinfoClaims).toEqual([...TABLE.school.third].sort());
    await recordAgreement(child.schoolId, [thirdParty.id]);
    expect((await received(thirdParty, THIRD_CALLBACK, child)).userinfoClaims).toEqual(
      [...TABLE['school, the application named in the agreement'].third].sort(),
    );
    edu.ok(
      await call(
        'POST',
        pathOf(routes.endSchoolAgreement.path, { id: child.schoolId }),
        {},
        {
          token: await edu.operatorToken(),
        },
      ),
      204,
    );
    expect((await received(thirdParty, THIRD_CALLBACK, child)).userinfoClaims).toEqual([...TABLE.school.third].sort());
  });

  it('granted: once a guardian consents, both get what they ask; a token issued while pending answers the new state', async () => {
    const child = await pupil('陈一鸣', false);
    const before = await received(thirdParty, THIRD_CALLBACK, child);
    expect(before.userinfoClaims).toEqual([...TABLE.pending.third].sort());
    await guardianConsents(child);
    expect(await consentState(child)).toBe('granted');
    await expectRow('granted', child);
    const after = await oidc.fetchUserInfo(before.config, before.tokens.access_token, String(child.userId));
    expect(personal(after)).toEqual([...TABLE.granted.third].sort());
  });

  it('withdrawn: the account is frozen; tokens of both parties answer nothing any more', async () => {
    const child = await pupil('刘子涵', false);
    const guardian = await guardianConsents(child);
    const first = await received(firstParty, FIRST_CALLBACK, child);
    const third = await received(thirdParty, THIRD_CALLBACK, child);
    edu.ok(
      await call('POST', pathOf(routes.withdrawConsent.path, { id: child.userId }), {}, { token: guardian.token }),
      204,
    );
    for (const got of [first, third]) {
      await expect(oidc.fetchUserInfo(got.config, got.tokens.access_token, String(child.userId))).rejects.toThrow();
    }
  });
});

describe('the consent screen', () => {
  it('lists what the third party will receive of a pending child, and apart what it asked and will not get', async () => {
    const child = await pupil('赵一凡', false);
    const browser = cookieBrowser();
    const config = await discover(server, thirdParty.id, thirdParty.secret);
    const { landed } = await authorize(config, browser, THIRD_CALLBACK, { scope: EVERY_SCOPE });
    const shown = await interactionCall<{ claims: string[]; withheld: string[]; consent: boolean }>(
      server,
      browser,
      'GET',
      interactionOf(landed),
      undefined,
      child.token,
    );
    expect(shown.body.consent).toBe(true);
    expect([...shown.body.claims].sort()).toEqual([...TABLE.pending.third].sort());
    // The rest of what it asked is named as kept back, each with its line (web/src/i18n/locales.test.ts).
    const kept = [...EVERY_CLAIM].filter((claim) => !(TABLE.pending.third as readonly string[]).includes(claim));
    expect([...shown.body.withheld].sort()).toEqual(kept.sort());
  });
});

describe('the ID token alone (response_type=id_token by form_post)', () => {
  it('carries no more of a pending child to a third party than the code flow does', async () => {
    const callback = 'https://quiz.school.example/callback';
    const app = await registerApp(
      server,
      { name: 'Quiz by form_post', redirect_uris: [callback], first_party: false },
      await edu.operatorToken(),
    );
    const child = await pupil('孙雨桐', false);
    const browser = cookieBrowser();
    const start = new URL(`${server.url}/oidc/auth`);
    for (const [name, value] of Object.entries({
      client_id: app.application.client_id,
      response_type: 'id_token',
      response_mode: 'form_post',
      redirect_uri: callback,
      scope: EVERY_SCOPE,
      nonce: 'n-0S6_WzA2Mj',
      state: 'af0ifjsldkj',
    })) {
      start.searchParams.set(name, value);
    }
    const landed = await browser.follow(start.href, (next) => next.includes('interaction='));
    const done = await interactionCall<{ redirect_to: string }>(
      server,
      browser,
      'POST',
      `${interactionOf(landed)}/complete`,
      { consent: true },
      child.token,
    );
    expect(done.status).toBe(200);
    let hop = await browser.request(done.body.redirect_to);
    for (let step = 0; hop.location !== undefined && step < 10; step++) hop = await browser.request(hop.location);
    const idToken = hiddenFields(hop.body).id_token;
    expect(idToken, hop.body.slice(0, 300)).toBeTypeOf('string');
    expect(personal(decodeJwt(String(idToken)))).toEqual([...TABLE.pending.third].sort());
  });
});

describe("an application's tokens", () => {
  it('carry no personal claim in an API access token, and open neither the account API nor the education API', async () => {
    const api = 'https://api.quiz.example/';
    server.app.ctx.config.oidcResources = [...server.app.ctx.config.oidcResources, api];
    const child = await pupil('吴思远', false);
    const config = await discover(server, thirdParty.id, thirdParty.secret);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, THIRD_CALLBACK, { scope: EVERY_SCOPE, resource: api });
    const redirect = await complete(server, browser, landed, child.token, THIRD_CALLBACK, { consent: true });
    const forApi = await oidc.authorizationCodeGrant(config, new URL(redirect), checks, { resource: api });
    const payload = decodeJwt(forApi.access_token);
    expect(personal(payload)).toEqual(['sub']);
    const opaque = (await received(thirdParty, THIRD_CALLBACK, child)).tokens.access_token;
    for (const token of [forApi.access_token, opaque]) {
      // Refused as no EduPass access token at all ("Access token is invalid.").
      for (const path of ['/tiger/v3/web/accounts/profile', routes.eduMemberships.path]) {
        const answer = await call<{ error_code: string }>('GET', path, undefined, { token });
        expect(answer.status, path).toBe(401);
        expect(answer.body.error_code, path).toBe('10000000');
      }
    }
  });
});

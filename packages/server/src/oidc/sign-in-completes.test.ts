/**
 * A sign-in that names the product sign-in its browser waits on (`interaction`: a login card's, `POST
 * /edu/badge/sign-in`; a password's, `POST …/login`, whose handler `…/login/security` shares; an SMS
 * code's, `POST …/phone/login/silence` and `…/phone/login/post-process`; an e-mail code's; the second
 * factor's step; a passkey's; the return from WeChat or QQ, `POST …/oauth/wechat`, and the account made
 * for an identity not linked yet, `POST …/oauth/third-party`) completes it: the answer's
 * `redirect_to` takes the browser back to a first-party product with a code for the user, with no
 * call of the web client's return. Whatever would stop that return stops this too (another browser's
 * interaction, a third-party application's consent, a password the pupil must choose first,
 * agreements to sign, an interaction that is no more): the sign-in is answered as any, without
 * `redirect_to`, and the interaction is left as it was.
 */
import { routes } from '@edupass/protocol';
import {
  agreementIdsInEffect,
  codeFor,
  expectError,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  signUpAgreed,
  signUpByEmail,
} from '@edupass/test-kit/accounts';
import { cookieBrowser } from '@edupass/test-kit/cookie-browser';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { client } from '@edupass/test-kit/http-client';
import { providerReturn } from '@edupass/test-kit/oauth-flow';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { authorize, type Browser, discover, interactionCall, interactionOf } from '@edupass/test-kit/oidc-flow';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { enrolAuthenticatorApp, registerSoftPasskey } from '@edupass/test-kit/second-factors';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, adoptOwnUrl } = useIssuerServer({ eduPupilPasswordChange: false });
const CALLBACK = 'https://courses.example.com/callback';
const QUIZ_CALLBACK = 'https://quiz.example.com/callback';

let app: { id: string; secret: string };
let quiz: string;
/** Cards of pupils of a school with its agreement, one per test. */
let cards: string[];

const printedCards = async (names: string[]) => {
  const edu = eduSteps(server, client(server.url));
  const schoolId = await edu.addSchool('实验小学');
  const teacher = await edu.approvedTeacher(schoolId);
  const classId = await edu.createClass(teacher, schoolId);
  await edu.createPupils(teacher, classId, names);
  return decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html).map(badgeOf);
};

beforeAll(async () => {
  adoptOwnUrl();
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] });
  app = { id: made.application.client_id, secret: String(made.client_secret) };
  quiz = (
    await registerApp(server, {
      name: 'Quiz',
      redirect_uris: [QUIZ_CALLBACK],
      first_party: false,
      confidential: false,
    })
  ).application.client_id;
  cards = await printedCards(['王小明', '李小红', '张小刚', '赵小丽', '陈小军', '刘小芳']);
});

type SignInAnswer = { user_info: { id: number }; auth: { token: string }; redirect_to?: string };

/** The card's sign-in from `browser` (its cookies go along), naming `interaction` when given. */
const cardSignIn = async (browser: Browser, badge: string | undefined, interaction?: string) => {
  const body = { badge, ...(interaction === undefined ? {} : { interaction }) };
  return client(server.url)<SignInAnswer>('POST', routes.signInByBadge.path, body, {
    headers: { cookie: browser.cookieHeader() },
  });
};

/** A sign-in that stands (its session works) but completed nothing. */
const signedInOnly = async (answer: Awaited<ReturnType<typeof cardSignIn>>) => {
  expect(answer.status).toBe(200);
  expect(answer.body.redirect_to).toBeUndefined();
  const profile = await client(server.url)('GET', routes.getProfile.path, undefined, { token: answer.body.auth.token });
  expect(profile.status).toBe(200);
  return answer.body.auth.token;
};

describe('a card sign-in naming the interaction its browser waits on', () => {
  it('completes a first-party product sign-in: straight back to the product, with a code for the pupil', async () => {
    const config = await discover(server, app.id, app.secret);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const answer = await cardSignIn(browser, cards[0], interactionOf(landed));
    expect(answer.status).toBe(200);
    expect(answer.body.redirect_to).toBeTypeOf('string');
    const back = await browser.follow(String(answer.body.redirect_to), (next) => next.startsWith(CALLBACK));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back), checks);
    expect(tokens.claims()?.sub).toBe(String(answer.body.user_info.id));
  });

  it("does not complete another browser's interaction: the other browser resumes to no code", async () => {
    const config = await discover(server, app.id, app.secret);
    const attacker = cookieBrowser();
    const { landed } = await authorize(config, attacker, CALLBACK);
    const uid = interactionOf(landed);
    await signedInOnly(await cardSignIn(cookieBrowser(), cards[1], uid));
    const resumed = await attacker.request(`${server.url}/oidc/auth/${uid}`);
    expect(resumed.location ?? '').not.toContain('code=');
  });

  it("leaves a third-party application's consent to the pupil's screen", async () => {
    const browser = cookieBrowser();
    const { landed } = await authorize(await discover(server, quiz), browser, QUIZ_CALLBACK);
    const uid = interactionOf(landed);
    const token = await signedInOnly(await cardSignIn(browser, cards[2], uid));
    const details = await interactionCall<{ consent: boolean }>(server, browser, 'GET', uid, undefined, token);
    expect(details.body.consent).toBe(true);
  });

  it('leaves the password the school asks for to its screen', async () => {
    const config = await discover(server, app.id, app.secret);
    const browser = cookieBrowser();
    const uid = interactionOf((await authorize(config, browser, CALLBACK)).landed);
    const pupil = (await cardSignIn(cookieBrowser(), cards[3])).body.user_info.id;
    await server.app.ctx.db
      .updateTable('pupil_accounts')
      .set({ must_change_password: 1 })
      .where('user_id', '=', pupil)
      .execute();
    const token = await signedInOnly(await cardSignIn(browser, cards[3], uid));
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, token), 'E_17');
  });

  it('signs in as any card where the interaction is no more, or was never one', async () => {
    const browser = cookieBrowser();
    await signedInOnly(await cardSignIn(browser, cards[4], 'no-such-interaction'));
    expectError(await cardSignIn(browser, cards[5], 'x'.repeat(65)), 'E_1');
    expectError(await cardSignIn(browser, 'not-a-card', 'no-such-interaction'), 'AC3_2');
  });
});

/** A sign-in's `body` posted to `path` from `browser` (its cookies go along). */
const postFrom = (browser: Browser, path: string, body: Record<string, unknown>) =>
  client(server.url)<SignInAnswer>('POST', path, body, { headers: { cookie: browser.cookieHeader() } });

/** A password sign-in from `browser`, naming `interaction`. */
const passwordSignIn = (browser: Browser, identity: string, interaction: string) =>
  postFrom(browser, routes.loginByPassword.path, { identity, password: PASSWORD, pid: PID, interaction });

/** Where `answer.redirect_to` leads `browser`: the product's callback, whose code is the user's. */
const expectCodeFor = async (
  config: oidc.Configuration,
  browser: Browser,
  checks: Parameters<typeof oidc.authorizationCodeGrant>[2],
  answer: { status: number; body: SignInAnswer },
) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.redirect_to).toBeTypeOf('string');
  const back = await browser.follow(String(answer.body.redirect_to), (next) => next.startsWith(CALLBACK));
  const tokens = await oidc.authorizationCodeGrant(config, new URL(back), checks);
  expect(tokens.claims()?.sub).toBe(String(answer.body.user_info.id));
};

describe('every other sign-in of the web client naming the interaction its browser waits on', () => {
  it('completes a first-party product sign-in by password', async () => {
    const config = await discover(server, app.id, app.secret);
    const account = await signUpAgreed(server);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    await expectCodeFor(config, browser, checks, await passwordSignIn(browser, account.phone, interactionOf(landed)));
  });

  it('completes it by SMS code, the sign-in that makes an account on first use and the one that does not', async () => {
    const config = await discover(server, app.id, app.secret);
    const phone = nextPhone();
    const agreement_ids = await agreementIdsInEffect(server);
    for (const [send, path] of [
      ['captcha/login/silence', routes.loginByPhoneSilently.path],
      ['captcha/login/post-process', routes.loginByPhone.path],
    ] as const) {
      const browser = cookieBrowser();
      const { landed, checks } = await authorize(config, browser, CALLBACK);
      const captcha = await codeFor(server, send, { phone_number: phone, pid: PID });
      const body = { phone_number: phone, captcha, pid: PID, agreement_ids, interaction: interactionOf(landed) };
      await expectCodeFor(config, browser, checks, await postFrom(browser, path, body));
    }
  });

  it('completes it by e-mail code', async () => {
    const config = await discover(server, app.id, app.secret);
    const { email } = await signUpByEmail(server);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const captcha = await codeFor(server, 'email/captcha/login', { email, pid: PID });
    const agreement_ids = await agreementIdsInEffect(server);
    const body = { email, captcha, pid: PID, agreement_ids, interaction: interactionOf(landed) };
    await expectCodeFor(config, browser, checks, await postFrom(browser, routes.loginByEmail.path, body));
  });

  it("completes it with the second factor's step, the password's step having completed nothing", async () => {
    const config = await discover(server, app.id, app.secret);
    const account = await signUpAgreed(server);
    const { secret } = await enrolAuthenticatorApp(client(server.url), account.token);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const first = await passwordSignIn(browser, account.phone, interactionOf(landed));
    expect(first.body).toMatchObject({ error_code: 'E_11', mfa_challenge: expect.any(String) });
    const { mfa_challenge } = first.body as unknown as { mfa_challenge: string };
    // The enrolment used this step's code: the next step's, which the server takes as a phone's drift.
    const code = totpCode(secret, stepAt(Date.now()) + 1);
    const body = { mfa_challenge, code, interaction: interactionOf(landed) };
    await expectCodeFor(config, browser, checks, await postFrom(browser, routes.verifySecondFactor.path, body));
  });

  it('completes it with a passkey alone', async () => {
    const config = await discover(server, app.id, app.secret);
    const account = await signUpAgreed(server);
    const passkey = await registerSoftPasskey(client(server.url), account.token, server.config.publicUrl);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const options = await client(server.url)<{ challenge: string }>('POST', routes.passkeySignInOptions.path);
    const body = { pid: PID, response: passkey.assert(options.body, true), interaction: interactionOf(landed) };
    await expectCodeFor(config, browser, checks, await postFrom(browser, routes.passkeySignIn.path, body));
  });

  it('completes it on the return from WeChat: the account made for an identity not linked yet, then the one linked', async () => {
    const config = await discover(server, app.id, app.secret);
    const agreement_ids = await agreementIdsInEffect(server);
    const identity = `wx${Date.now().toString(36)}`;
    /** The return from the development WeChat to a browser waiting on a product: its sign-in by the code. */
    const wechatReturn = async () => {
      const browser = cookieBrowser();
      const { landed, checks } = await authorize(config, browser, CALLBACK);
      const back = await providerReturn(server, 'wechat', identity);
      const interaction = interactionOf(landed);
      const body = { code: back.code, state: back.state, pid: PID, agreement_ids, interaction };
      const answer = await client(server.url)<SignInAnswer & { oauth_ticket?: string }>(
        'POST',
        routes.loginByWechat.path,
        body,
        { headers: { cookie: `${browser.cookieHeader()}; ${back.cookie}` } },
      );
      return { browser, checks, interaction, answer };
    };
    // Not linked yet: a ticket, and the account made without a phone completes the product's sign-in.
    const first = await wechatReturn();
    expect(first.answer.status).toBe(200);
    const ticket = String(first.answer.body.oauth_ticket);
    const made = await postFrom(first.browser, routes.createOauthUser.path, {
      oauth_ticket: ticket,
      agreement_ids,
      interaction: first.interaction,
    });
    await expectCodeFor(config, first.browser, first.checks, made);
    // Linked now: the return's sign-in completes it.
    const second = await wechatReturn();
    await expectCodeFor(config, second.browser, second.checks, second.answer);
  });

  it('leaves agreements to sign to the gate: the sign-in stands, the interaction waits', async () => {
    const config = await discover(server, app.id, app.secret);
    const account = await signUp(server);
    const browser = cookieBrowser();
    const uid = interactionOf((await authorize(config, browser, CALLBACK)).landed);
    const token = await signedInOnly(await passwordSignIn(browser, account.phone, uid));
    expectError(await interactionCall(server, browser, 'POST', `${uid}/complete`, {}, token), 'E_15');
  });

  it("does not complete another browser's interaction", async () => {
    const config = await discover(server, app.id, app.secret);
    const account = await signUpAgreed(server);
    const attacker = cookieBrowser();
    const uid = interactionOf((await authorize(config, attacker, CALLBACK)).landed);
    await signedInOnly(await passwordSignIn(cookieBrowser(), account.phone, uid));
    const resumed = await attacker.request(`${server.url}/oidc/auth/${uid}`);
    expect(resumed.location ?? '').not.toContain('code=');
  });

  it('two sign-ins at once naming the same interaction: both stand, the product gets one code, of one of them', async () => {
    const config = await discover(server, app.id, app.secret);
    const [first, second] = await Promise.all([signUpAgreed(server), signUpAgreed(server)]);
    const browser = cookieBrowser();
    const { landed, checks } = await authorize(config, browser, CALLBACK);
    const uid = interactionOf(landed);
    const answers = await Promise.all([first, second].map((account) => passwordSignIn(browser, account.phone, uid)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const redirect = answers.map((answer) => answer.body.redirect_to).find((to) => to !== undefined);
    expect(redirect).toBeTypeOf('string');
    const back = await browser.follow(String(redirect), (next) => next.startsWith(CALLBACK));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back), checks);
    expect([String(first.userId), String(second.userId)]).toContain(tokens.claims()?.sub);
    // Resumed once: the interaction is spent, a second resume gets no code.
    const again = await browser.request(`${server.url}/oidc/auth/${uid}`);
    expect(again.location ?? '').not.toContain('code=');
  });
});

/**
 * Factors that mean what they say, over HTTP: an operator's console session must itself have passed
 * the second factor; a passkey stands for both factors only with user verification; a second-factor
 * sign-in keeps the product of its first step; a finish that loses its race spends nothing; and
 * tokens/convert turns only a legacy session token into that session's own refresh chain. Changing
 * the factors of an account that has one (new recovery codes, removing the app or a passkey) takes a
 * session that passed the second factor, not only a recent password: a session opened with the
 * password before the factor existed must not mint recovery codes (which then stand for the factor
 * everywhere) nor strip the factor off.
 */
import type { LoginResult, RecoveryCodes, SecondFactorChallenge, TokenSet } from '@edupass/protocol';
import {
  A,
  expectError,
  expectSignedIn,
  expectTokenSet,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  T,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { enrolAuthenticatorApp, registerSoftPasskey } from '@edupass/test-kit/second-factors';
import { softPasskey } from '@edupass/test-kit/webauthn-authenticator';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../cli/admin.ts';

let offset = 0;
const now = () => 1_900_000_000_000 + offset;
const nextStep = (steps = 1) => {
  offset += steps * 30_000;
};

const OTHER = 'other';
const { server, call } = useTestServer({ operatorMfa: 'required', products: { [PID]: PID, [OTHER]: OTHER } }, { now });

type Answer = SecondFactorChallenge & LoginResult;
const passwordSignIn = (identity: string, pid = PID) =>
  call<Answer>('POST', `${A}/login`, { identity, password: PASSWORD, pid }, { headers: TOKEN_SET_HEADERS });
const accessOf = (answer: { body: unknown }) => (expectSignedIn(answer as never).auth.token as TokenSet).access.token;
const finish = (challenge: string, proof: { code?: string; passkey?: unknown }) =>
  call<LoginResult>(
    'POST',
    `${A}/second-factor/verify`,
    { mfa_challenge: challenge, ...proof },
    { headers: TOKEN_SET_HEADERS },
  );

/** Sets up an authenticator app with `token`'s session: its secret and recovery codes. */
const enrolApp = async (token: string) => {
  const app = await enrolAuthenticatorApp(call, token, now());
  nextStep();
  return app;
};

const adminUsers = (token: string) => call('GET', '/admin/users', undefined, { token });
const origin = () => new URL(server.config.publicUrl).origin;
const rpId = () => new URL(server.config.publicUrl).hostname;

describe('operator sessions', () => {
  it('a session opened with the password before enrolment stays outside the console once a factor is enrolled', async () => {
    const phone = nextPhone();
    await createAdmin(server.app.ctx, phone, PASSWORD);
    const early = accessOf(await passwordSignIn(phone));
    expectError(await adminUsers(early), 'E_14');
    // Enrolment from another session: that session proved the factor, the early one did not.
    const enrolling = accessOf(await passwordSignIn(phone));
    const app = await enrolApp(enrolling);
    expect((await adminUsers(enrolling)).status).toBe(200);
    expectError(await adminUsers(early), 'E_14');
    // Nor can it add a factor of its own (a passkey) to get there: that takes the factor the account has.
    expect((await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: early })).status).toBe(204);
    expectError(await call('POST', `${A}/second-factor/passkeys/options`, undefined, { token: early }), 'E_7');
    expectError(await adminUsers(early), 'E_14');
    // A new sign-in with both factors opens the console.
    const challenge = (await passwordSignIn(phone)).body.mfa_challenge;
    const full = accessOf(await finish(challenge, { code: totpCode(app.secret, stepAt(now())) }));
    expect((await adminUsers(full)).status).toBe(200);
    // The early session proves the factor itself (a step-up by the app): then it is a console session.
    nextStep();
    const proved = await call(
      'POST',
      `${A}/step-up/second-factor`,
      { code: totpCode(app.secret, stepAt(now())) },
      { token: early },
    );
    expect(proved.status).toBe(204);
    expect((await adminUsers(early)).status).toBe(200);
  });
});

describe('a passkey alone', () => {
  /** An account with an authenticator app and a passkey registered. */
  const withAppAndPasskey = async () => {
    const account = await signUp(server);
    const app = await enrolApp(account.token);
    const passkey = await registerSoftPasskey(call, account.token, server.config.publicUrl);
    return { ...account, ...app, passkey };
  };

  const passkeySignIn = async (passkey: ReturnType<typeof softPasskey>, uv: boolean) => {
    const options = await call<{ challenge: string }>('POST', `${A}/passkeys/sign-in/options`);
    expect(options.status).toBe(200);
    return call<Answer>(
      'POST',
      `${A}/passkeys/sign-in`,
      { pid: PID, response: passkey.assert(options.body, uv) },
      { headers: TOKEN_SET_HEADERS },
    );
  };

  it('with user verification signs in by itself', async () => {
    const account = await withAppAndPasskey();
    expectSignedIn(await passkeySignIn(account.passkey, true), account.phone);
  });

  it('without user verification is one factor: the app is asked for, and the passkey cannot answer it', async () => {
    const account = await withAppAndPasskey();
    const answer = await passkeySignIn(account.passkey, false);
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.body).toMatchObject({ error_code: 'E_11', mfa_methods: ['totp', 'recovery_code'] });
    const options = await call<{ challenge: string }>('POST', `${A}/second-factor/passkey-options`, {
      mfa_challenge: answer.body.mfa_challenge,
    });
    expect(options.status).toBe(200);
    expectError(
      await finish(answer.body.mfa_challenge, { passkey: account.passkey.assert(options.body, true) }),
      'E_13',
    );
    expectSignedIn(
      await finish(answer.body.mfa_challenge, { code: totpCode(account.secret, stepAt(now())) }),
      account.phone,
    );
  });
});

describe('passkey sign-in options', () => {
  it('are rationed per IP: an anonymous caller cannot store ceremonies without limit', async () => {
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push(await call('POST', `${A}/passkeys/sign-in/options`));
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.length - refused.length).toBeLessThanOrEqual(60);
    expectError(refused[0] as (typeof answers)[number], 'AC3_23');
    // The window passes: options again.
    offset += 61_000;
    expect((await call('POST', `${A}/passkeys/sign-in/options`)).status).toBe(200);
  });
});

describe('the second step', () => {
  it('signs in to the product of the first step', async () => {
    const account = await signUp(server);
    await enrolApp(account.token);
    const challenge = await passwordSignIn(account.phone, OTHER);
    expect(challenge.body).toMatchObject({ error_code: 'E_11' });
    const recovery = (
      await call<RecoveryCodes>('POST', `${A}/second-factor/recovery-codes`, undefined, {
        token: account.token,
      })
    ).body.recovery_codes;
    const token = accessOf(await finish(challenge.body.mfa_challenge, { code: String(recovery[0]) }));
    expect(decodeJwt(token).aud).toBe(OTHER);
  });

  it('two finishes of one challenge at once with two recovery codes spend only the winner’s', async () => {
    const account = await signUp(server);
    const app = await enrolApp(account.token);
    const { mfa_challenge } = (await passwordSignIn(account.phone)).body;
    const answers = await Promise.all(
      app.recovery.slice(0, 4).map((code) => finish(mfa_challenge, { code: String(code) })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const status = await call<{ recovery_codes_left: number }>('GET', `${A}/second-factor`, undefined, {
      token: account.token,
    });
    expect(status.body.recovery_codes_left).toBe(9);
  });
});

describe('tokens/convert', () => {
  const convert = (token: string) => call<TokenSet>('POST', `${T}/convert`, undefined, { token });
  const refresh = (token: string) => call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: token });

  it('refuses an access token of a token-set session: no second chain beside the session’s own', async () => {
    const account = await signUp(server);
    expectError(await convert(account.token), '10000002');
    // The session's own chain still works.
    expectTokenSet((await refresh(account.refresh)).body);
  });

  it('converts a legacy session token into one chain of that session, inside refresh-reuse detection', async () => {
    const account = await signUp(server);
    const legacy = await call('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID });
    const token = expectSignedIn(legacy).auth.token as string;
    // Converted at once from two tabs: one chain, the same refresh token.
    const [first, second] = await Promise.all([convert(token), convert(token)]);
    const one = expectTokenSet(first.body);
    expect(expectTokenSet(second.body).refresh.token).toBe(one.refresh.token);
    // The access token of the converted set is not a cookie to convert again into another chain.
    const next = expectTokenSet((await refresh(one.refresh.token)).body);
    expectError(await convert(one.access.token), '10000002');
    expectError(await convert(token), '10000002');
    // The chain's first token back after the grace window: reuse, and the session ends.
    offset += (server.config.refreshGraceSeconds + 1) * 1000;
    expectError(await refresh(one.refresh.token), '10000001');
    expectError(await call('GET', `${A}/profile`, undefined, { token: next.access.token }), 'E_0');
    expectError(await call('GET', `${A}/profile`, undefined, { token }), 'E_0');
  });
});

/** Registers a passkey with `token`'s session: its id and the soft authenticator holding it. */
const enrolPasskey = async (token: string) => {
  const passkey = softPasskey(rpId(), origin());
  const options = await call<{ challenge: string }>('POST', `${A}/second-factor/passkeys/options`, undefined, {
    token,
  });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const added = await call<{ id: number }>(
    'POST',
    `${A}/second-factor/passkeys`,
    { name: 'Laptop', response: passkey.register(options.body) },
    { token },
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { id: added.body.id, passkey };
};

const stepUpByPassword = async (token: string) =>
  expect((await call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token })).status).toBe(204);
const stepUpByApp = async (token: string, secret: string) => {
  nextStep();
  const code = totpCode(secret, stepAt(now()));
  expect((await call('POST', `${A}/step-up/second-factor`, { code }, { token })).status).toBe(204);
};
const newCodes = (token: string) =>
  call<RecoveryCodes>('POST', `${A}/second-factor/recovery-codes`, undefined, { token });
const removeApp = (token: string) => call('DELETE', `${A}/second-factor/totp`, undefined, { token });
const removePasskey = (token: string, id: number) =>
  call('DELETE', `${A}/second-factor/passkeys/${id}`, undefined, { token });
const status = async (token: string) =>
  (
    await call<{ totp: boolean; passkeys: unknown[]; recovery_codes_left: number }>(
      'GET',
      `${A}/second-factor`,
      undefined,
      { token },
    )
  ).body;

/** An account whose `early` session signed in with the password before `owner` set up an app. */
const earlySessionThenApp = async () => {
  const account = await signUp(server);
  const early = accessOf(await passwordSignIn(account.phone));
  const owner = account.token;
  const app = await enrolApp(owner);
  return { ...account, early, owner, ...app };
};

describe('a session opened with the password before the factor existed', () => {
  it('cannot replace the recovery codes, even after a password step-up: E_7, and the old codes still work', async () => {
    const account = await earlySessionThenApp();
    await stepUpByPassword(account.early);
    expectError(await newCodes(account.early), 'E_7');
    expect((await status(account.owner)).recovery_codes_left).toBe(10);
    // The owner's codes were not replaced: one still finishes a sign-in.
    const challenge = (await passwordSignIn(account.phone)).body.mfa_challenge;
    expectSignedIn(await finish(challenge, { code: String(account.recovery[0]) }), account.phone);
  });

  it('cannot remove the authenticator app or a passkey, even after a password step-up: E_7', async () => {
    const account = await earlySessionThenApp();
    const { id } = await enrolPasskey(account.owner);
    await stepUpByPassword(account.early);
    expectError(await removeApp(account.early), 'E_7');
    expectError(await removePasskey(account.early, id), 'E_7');
    const left = await status(account.owner);
    expect(left.totp).toBe(true);
    expect(left.passkeys).toHaveLength(1);
  });

  it('of an operator, cannot mint a recovery code to pass the factor and enter the console', async () => {
    const phone = nextPhone();
    await createAdmin(server.app.ctx, phone, PASSWORD);
    const early = accessOf(await passwordSignIn(phone));
    const owner = accessOf(await passwordSignIn(phone));
    await enrolApp(owner);
    await stepUpByPassword(early);
    expectError(await newCodes(early), 'E_7');
    expectError(await call('GET', '/admin/users', undefined, { token: early }), 'E_14');
    expectError(await call('POST', `${A}/second-factor/passkeys/options`, undefined, { token: early }), 'E_7');
  });

  it('once it proves the factor itself (a step-up by the app), may replace the codes and remove the factor', async () => {
    const account = await earlySessionThenApp();
    await stepUpByApp(account.early, account.secret);
    const renewed = await newCodes(account.early);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect((await removeApp(account.early)).status).toBe(204);
    expect((await status(account.owner)).totp).toBe(false);
  });
});

describe('a session that passed the second factor', () => {
  it('at its sign-in (password and app code) replaces the codes and removes a passkey and the app', async () => {
    const account = await earlySessionThenApp();
    const { id } = await enrolPasskey(account.owner);
    const challenge = (await passwordSignIn(account.phone)).body.mfa_challenge;
    const full = accessOf(await finish(challenge, { code: totpCode(account.secret, stepAt(now())) }));
    expect((await newCodes(full)).status).toBe(200);
    expect((await removePasskey(full, id)).status).toBe(204);
    expect((await removeApp(full)).status).toBe(204);
    expect(await status(full)).toMatchObject({ totp: false, passkeys: [] });
  });

  it('by a recovery code (the app lost) removes the last factor, and may set up a new app', async () => {
    const account = await earlySessionThenApp();
    const challenge = (await passwordSignIn(account.phone)).body.mfa_challenge;
    const recovered = accessOf(await finish(challenge, { code: String(account.recovery[0]) }));
    expect((await removeApp(recovered)).status).toBe(204);
    expect((await status(recovered)).totp).toBe(false);
    await enrolApp(recovered);
    expect((await status(recovered)).totp).toBe(true);
  });

  it('still needs a recent proof: E_7 once the step-up window has passed, until it is given again', async () => {
    const account = await earlySessionThenApp();
    nextStep(20); // the sign-in's own proof (STEP_UP_SECONDS) has lapsed
    expectError(await newCodes(account.owner), 'E_7');
    expectError(await removeApp(account.owner), 'E_7');
    // The owner's session passed the factor when it set the app up: the password is proof enough.
    await stepUpByPassword(account.owner);
    expect((await newCodes(account.owner)).status).toBe(200);
    expect((await removeApp(account.owner)).status).toBe(204);
  });
});

describe('an account without a second factor', () => {
  it('has nothing to remove nor replace, and needs only the step-up', async () => {
    const account = await signUp(server);
    const early = accessOf(await passwordSignIn(account.phone));
    await stepUpByPassword(early);
    expectError(await newCodes(early), 'E_14');
    expect((await removeApp(early)).status).toBe(204);
  });
});

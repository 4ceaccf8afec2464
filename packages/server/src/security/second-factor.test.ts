/**
 * The second factor over HTTP: an authenticator app checked against codes computed here by an
 * independent RFC 6238 implementation, replay and clock drift on an injected clock, recovery codes,
 * the lock under parallel guesses, operators held to a second factor, and the operator's reset.
 */
import type { LoginResult, OperatorDuty, RecoveryCodes, SecondFactorChallenge, TotpSetup } from '@edupass/protocol';
import {
  A,
  codeFor,
  expectError,
  expectSignedIn,
  nextPhone,
  PASSWORD,
  PID,
  signUp,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../cli/admin.ts';

let offset = 0;
/** The server's clock, moved by whole 30-second steps: a test never waits for a new code. */
const now = () => 1_900_000_000_000 + offset;
const nextStep = (steps = 1) => {
  offset += steps * 30_000;
};

const LOCK_AFTER = 4;
const { server, call } = useTestServer(
  {
    loginLockAfter: LOCK_AFTER,
    loginSlowdownAfter: LOCK_AFTER,
    operatorMfa: 'required',
    secondFactorProducts: ['strict'],
    products: { [PID]: PID, strict: 'strict' },
  },
  { now },
);

const passwordSignIn = (identity: string, pid = PID) =>
  call<SecondFactorChallenge & LoginResult>(
    'POST',
    `${A}/login`,
    { identity, password: PASSWORD, pid },
    { headers: TOKEN_SET_HEADERS },
  );

const challengeFor = async (identity: string) => {
  const answer = await passwordSignIn(identity);
  expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  expect(answer.body).toMatchObject({ error_code: 'E_11', mfa_challenge: expect.any(String) });
  return answer.body;
};

const finish = (challenge: string, proof: { code?: string; passkey?: unknown }) =>
  call('POST', `${A}/second-factor/verify`, { mfa_challenge: challenge, ...proof }, { headers: TOKEN_SET_HEADERS });

/** A phone account with a confirmed authenticator app: its key, token and recovery codes. */
const withApp = async (phone = nextPhone()) => {
  const account = await signUp(server, phone);
  const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token: account.token });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\/EduPass:.*secret=/);
  expect(setup.body.qr_svg).toMatch(/^<svg/);
  const code = totpCode(setup.body.secret, stepAt(now()));
  const confirmed = await call<RecoveryCodes>(
    'POST',
    `${A}/second-factor/totp/confirm`,
    { code },
    { token: account.token },
  );
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  expect(confirmed.body.recovery_codes).toHaveLength(10);
  nextStep();
  return { ...account, secret: setup.body.secret, recovery: confirmed.body.recovery_codes };
};

describe('authenticator app', () => {
  it('a password sign-in asks for the second step; a code computed independently finishes it', async () => {
    const account = await withApp();
    const challenge = await challengeFor(account.phone);
    expect(challenge.mfa_methods).toEqual(['totp', 'recovery_code']);
    const signedIn = await finish(challenge.mfa_challenge, { code: totpCode(account.secret, stepAt(now())) });
    expectSignedIn(signedIn, account.phone);
    // The challenge is single use.
    expectError(await finish(challenge.mfa_challenge, { code: totpCode(account.secret, stepAt(now()) + 1) }), 'E_12');
  });

  it('a code already used is refused (replay), even on a new challenge', async () => {
    const account = await withApp();
    const code = totpCode(account.secret, stepAt(now()));
    expectSignedIn(await finish((await challengeFor(account.phone)).mfa_challenge, { code }));
    expectError(await finish((await challengeFor(account.phone)).mfa_challenge, { code }), 'E_12');
    // An older step than the last one used is a replay too.
    const older = totpCode(account.secret, stepAt(now()) - 1);
    expectError(await finish((await challengeFor(account.phone)).mfa_challenge, { code: older }), 'E_12');
  });

  it('a clock one step behind or ahead passes; two steps off does not', async () => {
    const account = await withApp();
    nextStep(2); // past the step the confirmation used
    const step = stepAt(now());
    expectError(
      await finish((await challengeFor(account.phone)).mfa_challenge, { code: totpCode(account.secret, step + 2) }),
      'E_12',
    );
    expectSignedIn(
      await finish((await challengeFor(account.phone)).mfa_challenge, { code: totpCode(account.secret, step - 1) }),
    );
    nextStep(3);
    const later = stepAt(now());
    expectError(
      await finish((await challengeFor(account.phone)).mfa_challenge, { code: totpCode(account.secret, later - 2) }),
      'E_12',
    );
    expectSignedIn(
      await finish((await challengeFor(account.phone)).mfa_challenge, { code: totpCode(account.secret, later + 1) }),
    );
  });

  it('a wrong code leaves the challenge for another try; bad input is the catalogue error', async () => {
    const account = await withApp();
    const { mfa_challenge } = await challengeFor(account.phone);
    expectError(await finish(mfa_challenge, { code: '000000x' }), 'E_12');
    expectError(await finish(mfa_challenge, {}), 'E_12');
    expectError(await finish(mfa_challenge, { passkey: { id: 1 } }), 'E_13');
    expectError(await finish('no-such-challenge', { code: '123456' }), 'E_12');
    expectError(await call('POST', `${A}/second-factor/verify`, { code: 5 }), 'E_1');
    expectSignedIn(await finish(mfa_challenge, { code: totpCode(account.secret, stepAt(now())) }));
  });
});

describe('other first steps', () => {
  it('an SMS-code sign-in of an account with an app asks for the second step too', async () => {
    const account = await withApp();
    const captcha = await codeFor(server, 'captcha/login/silence', { phone_number: account.phone, pid: PID });
    const answer = await call<SecondFactorChallenge>(
      'POST',
      `${A}/phone/login/silence`,
      { phone_number: account.phone, captcha, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
    expect(answer.body).toMatchObject({ error_code: 'E_11', mfa_methods: ['totp', 'recovery_code'] });
    expectSignedIn(await finish(answer.body.mfa_challenge, { code: String(account.recovery[0]) }), account.phone);
  });
});

describe('recovery codes', () => {
  it('each works once, in any case and spacing; new ones void the old', async () => {
    const account = await withApp();
    const [first, second] = account.recovery;
    expectSignedIn(
      await finish((await challengeFor(account.phone)).mfa_challenge, { code: String(first).toLowerCase() }),
    );
    expectError(await finish((await challengeFor(account.phone)).mfa_challenge, { code: String(first) }), 'E_12');
    const renewed = await call<RecoveryCodes>('POST', `${A}/second-factor/recovery-codes`, undefined, {
      token: account.token,
    });
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expectError(await finish((await challengeFor(account.phone)).mfa_challenge, { code: String(second) }), 'E_12');
    const fresh = String(renewed.body.recovery_codes[0]).replace('-', ' ');
    expectSignedIn(await finish((await challengeFor(account.phone)).mfa_challenge, { code: fresh }));
    const status = await call<{ recovery_codes_left: number }>('GET', `${A}/second-factor`, undefined, {
      token: account.token,
    });
    expect(status.body.recovery_codes_left).toBe(9);
  });

  it('one recovery code spent by three sign-ins at once signs in exactly one; so does one app code', async () => {
    // Two accounts, and three at once (below the lock): the losers of each race are wrong attempts too.
    const spend = async (account: Awaited<ReturnType<typeof withApp>>, code: (a: typeof account) => string) => {
      // The challenges one after another (parallel password sign-ins reserve attempts of their own).
      const challenges: string[] = [];
      for (let i = 0; i < 3; i++) challenges.push((await challengeFor(account.phone)).mfa_challenge);
      const answers = await Promise.all(challenges.map((challenge) => finish(challenge, { code: code(account) })));
      return answers.filter((answer) => answer.status === 200).length;
    };
    expect(await spend(await withApp(), (a) => String(a.recovery[0]))).toBe(1);
    expect(await spend(await withApp(), (a) => totpCode(a.secret, stepAt(now())))).toBe(1);
  });
});

describe('the lock', () => {
  it('parallel wrong codes: only LOGIN_LOCK_AFTER are checked, then even the right code is refused', async () => {
    const account = await withApp();
    const { mfa_challenge } = await challengeFor(account.phone);
    const answers = await Promise.all(Array.from({ length: 12 }, () => finish(mfa_challenge, { code: '999999' })));
    const codes = answers.map((a) => (a.body as { error_code: string }).error_code);
    expect(codes.filter((c) => c === 'E_12')).toHaveLength(LOCK_AFTER);
    expect(codes.filter((c) => c === 'E_5')).toHaveLength(12 - LOCK_AFTER);
    expectError(await finish(mfa_challenge, { code: totpCode(account.secret, stepAt(now())) }), 'E_5');
  });
});

describe('step-up', () => {
  it('an app code is a step-up proof', async () => {
    const account = await withApp();
    nextStep(20); // the sign-in's own proof (STEP_UP_SECONDS) has lapsed
    expectError(await call('POST', `${A}/second-factor/recovery-codes`, undefined, { token: account.token }), 'E_7');
    const status = await call<{ methods: string[] }>('GET', `${A}/step-up`, undefined, { token: account.token });
    expect(status.body.methods).toContain('totp');
    const code = totpCode(account.secret, stepAt(now()));
    expect((await call('POST', `${A}/step-up/second-factor`, { code }, { token: account.token })).status).toBe(204);
    expect((await call('POST', `${A}/second-factor/recovery-codes`, undefined, { token: account.token })).status).toBe(
      200,
    );
  });
});

describe('policy', () => {
  it('an operator without a second factor is sent to set one up; with one, the console opens after the second step', async () => {
    const phone = nextPhone();
    await createAdmin(server.app.ctx, phone, PASSWORD);
    const first = await passwordSignIn(phone);
    const token = (expectSignedIn(first).auth.token as { access: { token: string } }).access.token;
    expectError(await call('GET', '/admin/users', undefined, { token }), 'E_14');
    const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token });
    const code = totpCode(setup.body.secret, stepAt(now()));
    expect((await call('POST', `${A}/second-factor/totp/confirm`, { code }, { token })).status).toBe(200);
    expect((await call('GET', '/admin/users', undefined, { token })).status).toBe(200);
    // The last factor of an operator stays.
    expectError(await call('DELETE', `${A}/second-factor/totp`, undefined, { token }), 'E_4');
    nextStep();
    const challenge = await challengeFor(phone);
    expectSignedIn(await finish(challenge.mfa_challenge, { code: totpCode(setup.body.secret, stepAt(now())) }));
  });

  /** An operator with `duties`, signed in with a second factor set up (OPERATOR_MFA=required here). */
  const operatorWithFactor = async (duties?: OperatorDuty[]) => {
    const phone = nextPhone();
    await createAdmin(server.app.ctx, phone, PASSWORD, duties);
    const first = await passwordSignIn(phone);
    const token = (expectSignedIn(first).auth.token as { access: { token: string } }).access.token;
    const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token });
    await call(
      'POST',
      `${A}/second-factor/totp/confirm`,
      { code: totpCode(setup.body.secret, stepAt(now())) },
      { token },
    );
    return token;
  };

  it("an operator's reset removes a user's factors and is in the audit log", async () => {
    const account = await withApp();
    const token = await operatorWithFactor();
    const reset = await call('POST', `/admin/users/${account.userId}/second-factor/reset`, undefined, { token });
    expect(reset.status, JSON.stringify(reset.body)).toBe(204);
    expectSignedIn(await passwordSignIn(account.phone), account.phone);
    const audit = await call<{ entries: { action: string; target: string; operator_id: number }[] }>(
      'GET',
      '/admin/audit?action=user.second-factor.reset',
      undefined,
      { token: await operatorWithFactor(['auditor']) },
    );
    expect(JSON.stringify(audit.body)).toContain(`user:${account.userId}`);
  });

  it('a product that requires a second factor refuses a password alone (E_14) and asks an enrolled account for it', async () => {
    const plain = await signUp(server);
    expectError(await passwordSignIn(plain.phone, 'strict'), 'E_14');
    const enrolled = await withApp();
    const answer = await passwordSignIn(enrolled.phone, 'strict');
    expect(answer.body).toMatchObject({ error_code: 'E_11' });
  });
});

describe('passkey answers the server cannot verify', () => {
  const clientData = (challenge: string, type: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: server.url })).toString('base64url');

  it('are PASSKEY_INVALID, and a ceremony is spent by its first answer', async () => {
    const options = await call<{ challenge: string; rpId: string }>('POST', `${A}/passkeys/sign-in/options`);
    expect(options.status).toBe(200);
    expect(options.body.rpId).toBe(new URL(server.config.publicUrl).hostname);
    const forged = {
      id: 'bm8tc3VjaC1jcmVkZW50aWFs',
      rawId: 'bm8tc3VjaC1jcmVkZW50aWFs',
      type: 'public-key',
      response: {
        clientDataJSON: clientData(options.body.challenge, 'webauthn.get'),
        authenticatorData: '',
        signature: '',
      },
      clientExtensionResults: {},
    };
    const signIn = (response: unknown) => call('POST', `${A}/passkeys/sign-in`, { pid: PID, response });
    expectError(await signIn(forged), 'E_13');
    expectError(await signIn(forged), 'E_13');
    expectError(await signIn({}), 'E_13');
    expectError(await signIn('text'), 'E_13');
    expectError(await signIn({ response: { clientDataJSON: 'not base64 json' } }), 'E_13');
    expectError(await call('POST', `${A}/passkeys/sign-in`, { pid: PID }), 'E_1');

    const account = await signUp(server);
    const registration = await call<{ challenge: string }>('POST', `${A}/second-factor/passkeys/options`, undefined, {
      token: account.token,
    });
    expect(registration.status).toBe(200);
    const garbage = {
      ...forged,
      response: { clientDataJSON: clientData(registration.body.challenge, 'webauthn.create') },
    };
    expectError(
      await call('POST', `${A}/second-factor/passkeys`, { name: 'x', response: garbage }, { token: account.token }),
      'E_13',
    );
    // A registration ceremony does not answer a sign-in.
    const again = await call<{ challenge: string }>('POST', `${A}/second-factor/passkeys/options`, undefined, {
      token: account.token,
    });
    expectError(
      await signIn({ ...forged, response: { clientDataJSON: clientData(again.body.challenge, 'webauthn.get') } }),
      'E_13',
    );
  });
});

/**
 * Rotating JWT_SECRET as docs/operators.md says — the new secret in JWT_SECRET, the old one in
 * JWT_SECRET_PREVIOUS, then the old one removed — signs nobody out and leaves everything stored under
 * the old secret working, during the rotation and after it: sessions, applications' client secrets,
 * authenticator apps and recovery codes, console-set keys, roster links. Only the keyring is sealed
 * again; every stored hash and sealed value stays as it was. A secret changed without
 * JWT_SECRET_PREVIOUS stops the server with the fix named, and `edupass keys reset-keyring` is the way
 * on when the old secret is lost.
 */
import type { LoginResult, RecoveryCodes, SecondFactorChallenge, TotpSetup } from '@edupass/protocol';
import { routes } from '@edupass/protocol';
import {
  A,
  client,
  expectTokenSet,
  nextPhone,
  PASSWORD,
  PID,
  signInOperator,
  signUp,
  T,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { rosterSet, rosterZip } from '@edupass/test-kit/oneroster';
import { stepAt, totpCode } from '@edupass/test-kit/rfc6238';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config.ts';
import { putVendorFields, vendorStates } from '../services/captcha/vendor-keys.ts';
import { KEYRING_SEALED_ELSEWHERE, resetKeyring } from '../services/security/keyring.ts';
import { findSetting } from '../store/admin/settings.ts';
import { findVendorKeys } from '../store/captcha/captcha.ts';

const OLD = 'old-secret-0123456789-0123456789-0123456789';
const NEW = 'new-secret-9876543210-9876543210-9876543210';
const LOST = 'lost-secret-5555555555-5555555555-55555555';
const MINUTE = 60_000;

let before: TestServer;
const apps: App[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
  await before?.close();
});

type Secrets = Pick<Config, 'jwtSecret' | 'jwtSecretPrevious'>;

/** Another server process on the same database with other secrets, its clock `aheadMs` ahead. */
const restart = async (secrets: Secrets, aheadMs = 0) => {
  const app = await buildApp({ ...before.config, ...secrets }, { logger: false, now: () => Date.now() + aheadMs });
  apps.push(app);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return { app, url, call: client(url) };
};
type Server = Awaited<ReturnType<typeof restart>>;

/** What the rotation must leave as it was: every stored hash and sealed value keyed by the secret. */
const storedUnderKeys = async (server: TestServer) => {
  const { db } = server.app.ctx;
  return {
    signingKeys: await db
      .selectFrom('signing_keys')
      .select(['private_sealed', 'id_token_private_sealed'])
      .orderBy('generation')
      .execute(),
    authenticatorApps: await db.selectFrom('totp_secrets').select('secret_sealed').orderBy('user_id').execute(),
    recoveryCodes: await db.selectFrom('recovery_codes').select('code_hash').orderBy('code_hash').execute(),
    clientSecrets: await db.selectFrom('applications').select('secret_hash').orderBy('client_id').execute(),
    vendorKeys: (await findVendorKeys(db)).map((row) => `${row.vendor}.${row.field}=${row.value}`).sort(),
    rosterLinks: await db.selectFrom('roster_links').select('source_hash').orderBy('source_hash').execute(),
    initialPasswords: await db
      .selectFrom('pupil_accounts')
      .select('initial_password_sealed')
      .orderBy('user_id')
      .execute(),
  };
};

describe('rotating JWT_SECRET', () => {
  let operator: string;
  let account: Awaited<ReturnType<typeof signUp>>;
  let application: { id: string; secret: string };
  let factor: { phone: string; secret: string; recovery: string[] };
  let zip: Uint8Array;
  let stored: Awaited<ReturnType<typeof storedUnderKeys>>;

  beforeAll(async () => {
    before = await startTestServer({ jwtSecret: OLD, jwtSecretPrevious: undefined });
    const call = client(before.url);
    operator = (await signInOperator(before)).token;
    account = await signUp(before, nextPhone());
    const made = await registerApp(before, { redirect_uris: ['https://courses.example.com/callback'] }, operator);
    application = { id: made.application.client_id, secret: String(made.client_secret) };

    const withApp = await signUp(before, nextPhone());
    const setup = await call<TotpSetup>('POST', `${A}/second-factor/totp`, undefined, { token: withApp.token });
    const confirmed = await call<RecoveryCodes>(
      'POST',
      `${A}/second-factor/totp/confirm`,
      { code: totpCode(setup.body.secret, stepAt(Date.now())) },
      { token: withApp.token },
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    factor = { phone: withApp.phone, secret: setup.body.secret, recovery: confirmed.body.recovery_codes };

    await putVendorFields(before.app.ctx, {
      vendor: 'NETEASE',
      values: { captchaId: 'cid', secretId: 'sid-secret', secretKey: 'skey-secret' },
    });
    zip = rosterZip(
      rosterSet({ schools: 1, classesPerSchool: 2, pupilsPerClass: 3, teacherPhones: [account.phone], prefix: 'rot-' }),
    );
    const job = await importRoster(call, zip);
    expect(job.counts).toMatchObject({ schools_created: 1, pupils_created: 6 });
    stored = await storedUnderKeys(before);
  });

  const importRoster = async (call: Server['call'], bytes: Uint8Array) => {
    const previewed = await call<{ id: number; counts: Record<string, number> }>(
      'POST',
      routes.previewRosterImport.path,
      { file_base64: Buffer.from(bytes).toString('base64') },
      { token: operator },
    );
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    const applied = await call(
      'POST',
      routes.confirmRosterImport.path.replace(':id', String(previewed.body.id)),
      {},
      {
        token: operator,
      },
    );
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return previewed.body;
  };

  /** A password sign-in of the account with an authenticator app, finished with `proof`. */
  const secondFactorSignIn = async (server: Server, proof: { code: string }) => {
    const challenge = await server.call<SecondFactorChallenge & LoginResult>(
      'POST',
      `${A}/login`,
      { identity: factor.phone, password: PASSWORD, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
    expect(challenge.body).toMatchObject({ error_code: 'E_11', mfa_challenge: expect.any(String) });
    return server.call(
      'POST',
      `${A}/second-factor/verify`,
      { mfa_challenge: challenge.body.mfa_challenge, ...proof },
      { headers: TOKEN_SET_HEADERS },
    );
  };

  const introspectionStatus = (server: Server) =>
    fetch(`${server.url}/oidc/token/introspection`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${application.id}:${application.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: 'anything' }),
    }).then((answer) => answer.status);

  /** Everything stored under OLD, asked of `server`; `step` keeps each authenticator code fresh. */
  const expectAllWorking = async (server: Server, recoveryCode: string, stepAhead: number) => {
    expect((await server.call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
    expect(await introspectionStatus(server)).toBe(200);
    const byApp = await secondFactorSignIn(server, { code: totpCode(factor.secret, stepAt(Date.now()) + stepAhead) });
    expect(byApp.status, JSON.stringify(byApp.body)).toBe(200);
    const byRecovery = await secondFactorSignIn(server, { code: recoveryCode });
    expect(byRecovery.status, JSON.stringify(byRecovery.body)).toBe(200);
    const netease = (await vendorStates(server.app.ctx)).find((v) => v.name === 'NETEASE');
    expect(netease?.fields.filter((f) => f.secret).map((f) => [f.source, f.unreadable])).toEqual([
      ['console', undefined],
      ['console', undefined],
    ]);
    // The same roster file again: every school, class and pupil is found, nothing is made twice.
    const again = await importRoster(server.call, zip);
    expect(Object.entries(again.counts).filter(([kind, n]) => kind !== 'refused' && n !== 0)).toEqual([]);
  };

  it('during the rotation and after it, everything stored under the old secret works; only the keyring is sealed again', async () => {
    const keyringBefore = await findSetting(before.app.ctx.db, 'keyring');
    const rotating = await restart({ jwtSecret: NEW, jwtSecretPrevious: OLD }, 2 * MINUTE);
    await expectAllWorking(rotating, factor.recovery[0] ?? '', 4);
    const renewed = expectTokenSet(
      (await rotating.call('PUT', `${T}/refresh`, { refresh_token: account.refresh })).body,
    ).access.token;
    const keyringRotated = await findSetting(before.app.ctx.db, 'keyring');
    expect(keyringRotated).not.toBe(keyringBefore);

    // The old secret retired: no previous key anywhere, and nothing was sealed again meanwhile.
    const retired = await restart({ jwtSecret: NEW, jwtSecretPrevious: undefined }, 4 * MINUTE);
    await expectAllWorking(retired, factor.recovery[1] ?? '', 8);
    expect((await retired.call('GET', `${A}/profile`, undefined, { token: renewed })).status).toBe(200);
    expect(await findSetting(before.app.ctx.db, 'keyring')).toBe(keyringRotated);
    expect(await storedUnderKeys(before)).toEqual(stored);
  });

  it('a secret changed without JWT_SECRET_PREVIOUS stops the server, naming the fix; reset-keyring goes on without what it keyed', async () => {
    const refused = await restart({ jwtSecret: LOST, jwtSecretPrevious: undefined }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([KEYRING_SEALED_ELSEWHERE]);
    expect(KEYRING_SEALED_ELSEWHERE).toMatch(/JWT_SECRET_PREVIOUS/);

    // Reset refuses while a secret given opens the keyring; with neither, it deletes it.
    const { db } = before.app.ctx;
    expect(await resetKeyring(db, { secret: LOST, previous: NEW })).toEqual({
      reset: false,
      message: 'The keyring opens with JWT_SECRET_PREVIOUS: nothing to reset.',
    });
    const { reset, message } = await resetKeyring(db, { secret: LOST, previous: undefined });
    expect(reset).toBe(true);
    expect(message).toMatch(/client secrets[\s\S]*second factor[\s\S]*schools/);
    const fresh = await restart({ jwtSecret: LOST, jwtSecretPrevious: undefined });
    // Tokens already issued verify by the public keys; a new signing key signs; what the lost keyring
    // keyed no longer matches: the client secret is refused, the console keys read as unreadable.
    expect((await fresh.call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
    expect(await introspectionStatus(fresh)).toBe(401);
    const netease = (await vendorStates(fresh.app.ctx)).find((v) => v.name === 'NETEASE');
    expect(netease?.fields.filter((f) => f.secret).every((f) => f.unreadable)).toBe(true);
  });
});

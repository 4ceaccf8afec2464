/**
 * Secrets apart from data: production does not start without a signing secret from outside the
 * database; no bearer value sits in the database in clear (session ids included, with sessions from
 * before the change still working). (Rotating the secret: secret-rotation.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenSet } from '@edupass/protocol';
import { A, client, expectError, expectTokenSet, nextPhone, signUp, T } from '@edupass/test-kit/accounts';
import { bundleServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase } from '@edupass/test-kit/databases';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { sha256 } from '../services/security/hashing.ts';
import { issueSessionToken } from '../services/sessions/tokens.ts';
import * as hashedSessionIds from '../store/migrations/009-hashed-session-ids.ts';

const OLD = 'old-secret-0123456789-0123456789-0123456789';
const NEW = 'new-secret-9876543210-9876543210-9876543210';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
};

describe('the signing secret comes from outside the database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-secret-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('production without JWT_SECRET or JWT_SECRET_FILE does not start, and the message names the fix', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toMatch(
      /NODE_ENV=production needs a signing secret from outside the database.*Fix: JWT_SECRET=\$\(openssl rand -base64 48\), or JWT_SECRET_FILE=/,
    );
  });

  it('the server process started with NODE_ENV=production and no secret exits with that message', {
    timeout: 120_000,
  }, async () => {
    const bundle = await bundleServer();
    const database = await createTestDatabase();
    try {
      const started = startChildServer(bundle.file, {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        JWT_SECRET: '',
        JWT_SECRET_FILE: '',
      });
      await expect(started).rejects.toThrow(/server exited \(1\):[\s\S]*needs a signing secret[\s\S]*Fix: JWT_SECRET=/);
      const running = await startChildServer(bundle.file, {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        JWT_SECRET: NEW,
        JWT_SECRET_FILE: '',
      });
      await running.kill();
    } finally {
      bundle.remove();
      await database.drop();
    }
  });

  it('reads the secret from a file (trimmed), and says what is wrong with a bad one', () => {
    const file = join(dir, 'jwt');
    writeFileSync(file, `${NEW}\n`);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET_FILE: file }).jwtSecret).toBe(NEW);
    expect(problemsOf({ NODE_ENV: 'production', JWT_SECRET_FILE: join(dir, 'missing') })).toMatch(
      /JWT_SECRET_FILE=.*missing cannot be read \(ENOENT\)\. Fix: /,
    );
    writeFileSync(join(dir, 'short'), 'short');
    expect(problemsOf({ JWT_SECRET_FILE: join(dir, 'short') })).toMatch(/JWT_SECRET must be at least 32 characters/);
    expect(problemsOf({ JWT_SECRET: NEW, JWT_SECRET_FILE: file })).toMatch(/both set\. Fix: keep one/);
    expect(problemsOf({ JWT_SECRET_PREVIOUS: OLD })).toMatch(/JWT_SECRET_PREVIOUS is set without JWT_SECRET/);
  });

  it('with JWT_SECRET the database holds no secret; development keeps a generated one there', {
    timeout: 120_000,
  }, async () => {
    const withSecret = await startTestServer({ jwtSecret: NEW });
    const generated = await startTestServer({ jwtSecret: undefined });
    try {
      const secretRow = (server: TestServer) =>
        server.app.ctx.db.selectFrom('settings').select('value').where('key', '=', 'secret').executeTakeFirst();
      expect(await secretRow(withSecret)).toBeUndefined();
      expect((await secretRow(generated))?.value).toEqual(expect.any(String));
    } finally {
      await withSecret.close();
      await generated.close();
    }
  });
});

describe('bearer values are stored hashed', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('no session id, access token or refresh token appears in any table', async () => {
    server = await startTestServer({ jwtSecret: NEW });
    const account = await signUp(server, nextPhone());
    const refreshed = expectTokenSet(
      (await client(server.url)('PUT', `${T}/refresh`, { refresh_token: account.refresh })).body,
    );
    const sessionId = JSON.parse(Buffer.from(account.token.split('.')[1] ?? '', 'base64url').toString()).sid as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const db = server.app.ctx.db;
    const dump = JSON.stringify([
      await db.selectFrom('sessions').selectAll().execute(),
      await db.selectFrom('refresh_tokens').selectAll().execute(),
      await db.selectFrom('tickets').selectAll().execute(),
      await db.selectFrom('settings').selectAll().execute(),
    ]);
    for (const value of [sessionId, account.token, account.refresh, refreshed.refresh.token, refreshed.access.token]) {
      expect(dump).not.toContain(value);
    }
  });

  it('sessions stored before the change keep working: their tokens verify and their refresh chain goes on', async () => {
    // A session as it was stored before migration 009: the plain id, and a refresh token without it.
    const account = await signUp(server, nextPhone());
    const ctx = server.app.ctx;
    const legacyId = randomUUID();
    const legacyRefresh = 'legacy-refresh-token-of-an-older-release';
    const now = Date.now();
    await sql`insert into sessions (id, user_id, method, ip, user_agent, created_at, revoked_at)
      values (${legacyId}, ${account.userId}, 'password', '127.0.0.1', 'old app', ${now}, null)`.execute(ctx.db);
    await sql`insert into refresh_tokens (token_hash, session_id, created_at, expires_at)
      values (${sha256(legacyRefresh)}, ${legacyId}, ${now}, ${now + 86_400_000})`.execute(ctx.db);
    const legacyCookie = await issueSessionToken(ctx, { userId: account.userId, sessionId: legacyId });

    await hashedSessionIds.up(ctx.db as never);

    const ids = (await ctx.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
    expect(ids).not.toContain(legacyId);
    const call = client(server.url);
    expect((await call('GET', `${A}/profile`, undefined, { token: legacyCookie })).status).toBe(200);
    const first = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: legacyRefresh });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // A retry within the grace window gets the same successor (one chain).
    const retry = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: legacyRefresh });
    expect(retry.body.refresh.token).toBe(first.body.refresh.token);
    expect((await call('GET', `${A}/profile`, undefined, { token: first.body.access.token })).status).toBe(200);
    const next = await call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: first.body.refresh.token });
    expect(next.status).toBe(200);
    // The continued session keeps the old one's age.
    const ages = await ctx.db
      .selectFrom('sessions')
      .select('created_at')
      .where('user_id', '=', account.userId)
      .where('user_agent', '=', 'old app')
      .execute();
    expect(ages.map((row) => Number(row.created_at))).toEqual([now, now]);
  });

  it('a refresh token whose session id was altered is 10000001', async () => {
    const account = await signUp(server, nextPhone());
    const forged = `${randomUUID()}${account.refresh.slice(account.refresh.indexOf('.'))}`;
    expectError(await client(server.url)('PUT', `${T}/refresh`, { refresh_token: forged }), '10000001');
  });
});

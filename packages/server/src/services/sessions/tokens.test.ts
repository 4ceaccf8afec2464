import {
  ACCOUNTS_BASE,
  ClientCode,
  LEGACY_TOKENS_BASE,
  type RouteSpec,
  routes,
  type TokenSet,
} from '@edupass/protocol';
import {
  A,
  agreementIdsInEffect,
  authCookieOf,
  blockUser,
  type Call,
  client,
  expectError,
  expectSignedIn,
  expectTokenSet,
  PASSWORD,
  PID,
  signUp,
  sleep,
  T,
} from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { badgeOf, decodeCardQrCodes } from '@edupass/test-kit/qr-cards';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { findLiveSession, sessionKey } from '../../store/sessions/sessions.ts';
import { sha256 } from '../security/hashing.ts';
import { accessTokenClaims, signAccessToken } from './access-tokens.ts';
import { signEs256 } from './es256.ts';
import { currentSigner } from './signing-keys.ts';

const { server, call } = useTestServer();

const refresh = (c: Call, token: string) => c<TokenSet>('PUT', `${T}/refresh`, { refresh_token: token });

/** A plain session token, as clients without Auth-Version get it (and in the cookie). */
const sessionToken = async (phone: string) => {
  const answer = await call('POST', `${A}/login`, { identity: phone, password: PASSWORD, pid: PID });
  return expectSignedIn(answer).auth.token as string;
};

/** Account and token routes of the table that need a signed-in user (not third-party sign-in). */
const tokenRoutes = Object.entries(routes as Record<string, RouteSpec>).filter(
  ([, spec]) => spec.auth === 'token' && !spec.path.includes('/oauth'),
);

describe('refresh (PUT tokens/refresh)', () => {
  it('answers a new token set whose tokens work, rotating the refresh token', async () => {
    const account = await signUp(server);
    const answer = await refresh(call, account.refresh);
    expect(answer.status).toBe(200);
    const set = expectTokenSet(answer.body);
    expect(set.refresh.token).not.toBe(account.refresh);
    expect((await call('GET', `${A}/profile`, undefined, { token: set.access.token })).status).toBe(200);
    expect((await refresh(call, set.refresh.token)).status).toBe(200);
  });

  it('the same refresh token twice within the grace window gets the same successor', async () => {
    const account = await signUp(server);
    const first = await refresh(call, account.refresh);
    const again = await refresh(call, account.refresh);
    expect(again.status).toBe(200);
    expect(again.body.refresh.token).toBe(first.body.refresh.token);
  });

  it('an unknown refresh token is 10000001', async () => {
    expectError(await refresh(call, 'no-such-token'), '10000001', ClientCode.REFRESH_TOKEN_INVALID);
  });

  it('a missing refresh_token is E_1', async () => {
    expectError(await call('PUT', `${T}/refresh`, {}), 'E_1');
  });

  it('a blocked user’s refresh is AC3_44', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    expectError(await refresh(call, account.refresh), 'AC3_44');
  });
});

describe('refresh-token reuse outside the grace window', () => {
  const { server: strict, call: strictCall } = useTestServer({ refreshGraceSeconds: 0 });

  it('a refresh token used twice outside the grace window revokes the session', async () => {
    const account = await signUp(strict);
    const first = await refresh(strictCall, account.refresh);
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expectError(await refresh(strictCall, account.refresh), '10000001');
    // The whole family is gone: the successor and the access tokens of the session.
    expectError(await refresh(strictCall, first.body.refresh.token), '10000001');
    expectError(await strictCall('GET', `${A}/profile`, undefined, { token: first.body.access.token }), 'E_0');
    expectError(await strictCall('GET', `${A}/profile`, undefined, { token: account.token }), 'E_0');
    // Other sessions of the user are untouched.
    const again = await strictCall('POST', `${A}/login`, { identity: account.phone, password: PASSWORD, pid: PID });
    expectSignedIn(again);
  });
});

describe('50 parallel refreshes of one refresh token', () => {
  let offset = 0;
  const { server: racing, call: raceCall } = useTestServer(
    { refreshGraceSeconds: 10 },
    { now: () => Date.now() + offset },
  );

  it('all answer 200 with the same successor; exactly one rotation chain survives', async () => {
    const account = await signUp(racing);
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(raceCall, account.refresh)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const successors = new Set(answers.map((a) => a.body.refresh.token));
    expect(successors.size).toBe(1);
    const successor = [...successors][0] ?? '';

    const stored = await racing.app.ctx.db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .select(['refresh_tokens.token_hash'])
      .where('sessions.user_id', '=', account.userId)
      .execute();
    // The original (rotated: its successor is stored) and its one successor (live).
    expect(stored.map((row) => row.token_hash).sort()).toEqual([sha256(account.refresh), sha256(successor)].sort());

    // The surviving chain goes on.
    const next = await refresh(raceCall, successor);
    expect(next.status).toBe(200);
    // After the grace window the original is refused (and its session revoked).
    offset = 11_000;
    expectError(await refresh(raceCall, account.refresh), '10000001');
  });
});

describe('access tokens', () => {
  it('a forged access token is 10000000', async () => {
    const forged = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-123'));
    expectError(await call('GET', `${A}/profile`, undefined, { token: forged }), '10000000', ClientCode.TOKEN_INVALID);
    expectError(await call('GET', `${A}/profile`, undefined, { token: 'junk' }), '10000000');
  });

  it('an expired access token is 10000000; an expired refresh token is 10000001', async () => {
    let offset = 0;
    const clocked = await startTestServer(
      { accessTokenTtlSeconds: 60, refreshTokenTtlSeconds: 3600 },
      { now: () => Date.now() + offset },
    );
    try {
      const clockedCall = client(clocked.url);
      const account = await signUp(clocked);
      offset = 61_000;
      expectError(await clockedCall('GET', `${A}/profile`, undefined, { token: account.token }), '10000000');
      // The refresh token still gets a fresh set, whose access token works.
      const renewed = await refresh(clockedCall, account.refresh);
      expect(renewed.status).toBe(200);
      expect((await clockedCall('GET', `${A}/profile`, undefined, { token: renewed.body.access.token })).status).toBe(
        200,
      );
      offset = 61_000 + 3_601_000;
      expectError(await refresh(clockedCall, renewed.body.refresh.token), '10000001');
    } finally {
      await clocked.close();
    }
  });

  it('an ES256 token changed anywhere, or signed by our key for something else, is 10000000', async () => {
    const account = await signUp(server);
    const [header = '', payload = '', signature = ''] = account.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const { kid, key } = await currentSigner(server.app.ctx);
    const head = { alg: 'ES256', kid, typ: 'JWT' };
    const signed = (protectedHeader: object, body: object) => {
      const input = `${segment(protectedHeader)}.${segment(body)}`;
      return `${input}.${signEs256(key, input).toString('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const refused = [
      `${header}.${segment({ ...claims, sub: String(Number(claims.sub) + 1) })}.${signature}`,
      `${header}.${payload}.${flipped}`,
      `${header}.${payload}.${signature}x`,
      // Node's base64url decoding skips these; the signature as issued is 86 characters of the alphabet.
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature.slice(0, 40)}!${signature.slice(40)}`,
      `${header}.${payload}.${signature}.`,
      signed(head, { ...claims, aud: 'not-a-product' }),
      signed(head, { ...claims, scope: 'openid' }),
      signed(head, { ...claims, exp: now - 1 }),
      signed(head, { ...claims, nbf: now + 600 }),
      signed({ ...head, crit: ['exp'], exp: true }, claims),
      // Signed by the server itself, which remembers the claims of what it signs: not those of a
      // product it does not serve.
      await signAccessToken(
        server.app.ctx,
        { userId: Number(claims.sub), sessionId: String(claims.sid), pid: 'not-a-product' },
        600,
      ),
    ];
    for (const token of refused) expectError(await call('GET', `${A}/profile`, undefined, { token }), '10000000');
    // The same key and claims as issued pass: what was refused above was the change.
    expect((await call('GET', `${A}/profile`, undefined, { token: signed(head, claims) })).status).toBe(200);
  });

  it('a token verified by one server is 10000000 at a server in the same process with another signing key', async () => {
    const other = await startTestServer({ jwtSecret: 'a-different-secret-a-different-secret-456' });
    try {
      const account = await signUp(server);
      expect((await call('GET', `${A}/profile`, undefined, { token: account.token })).status).toBe(200);
      expectError(await client(other.url)('GET', `${A}/profile`, undefined, { token: account.token }), '10000000');
    } finally {
      await other.close();
    }
  });

  it('Authorization: Bearer, a bare token and the cookie (any case of its name) all authenticate', async () => {
    const account = await signUp(server);
    const token = await sessionToken(account.phone);
    const profile = (headers: Record<string, string>) => call('GET', `${A}/profile`, undefined, { headers });
    expect((await profile({ authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await profile({ authorization: token })).status).toBe(200);
    expect((await profile({ cookie: `authorization=${token}` })).status).toBe(200);
    expect((await profile({ cookie: `Authorization=${token}` })).status).toBe(200);
    expect((await profile({ cookie: `other=1; AUTHORIZATION=${token}` })).status).toBe(200);
  });

  it('every with-token route answers 403 E_0 without a token, even with an empty body', async () => {
    expect(tokenRoutes.length).toBeGreaterThan(15);
    for (const [name, spec] of tokenRoutes) {
      const answer = await call(spec.method, spec.path, spec.method === 'GET' ? undefined : {});
      expect(answer.body, name).toMatchObject({ error_code: 'E_0' });
      expectError(answer, 'E_0', ClientCode.NO_TOKEN);
    }
  });

  it('a blocked user gets AC3_44 on every with-token route', async () => {
    const account = await signUp(server);
    await blockUser(server, account.userId);
    for (const [name, spec] of tokenRoutes) {
      const answer = await call(spec.method, spec.path, spec.method === 'GET' ? undefined : {}, {
        token: account.token,
      });
      expect(answer.body, name).toMatchObject({ error_code: 'AC3_44' });
      expectError(answer, 'AC3_44', ClientCode.ACCOUNT_BLOCKED);
    }
  });
});

describe('a new session, remembered from its start', () => {
  /** The session a token names: what the session cache remembers of it, and what the database reads. */
  const rememberedAndRead = async (token: string) => {
    const { ctx } = server.app;
    const { sessionId } = await accessTokenClaims(ctx, token);
    return { sessionId, remembered: ctx.sessions.peek(sessionId), read: await findLiveSession(ctx.db, sessionId) };
  };
  /** A value as the sealed-records store keeps it (store/sealed-records.ts), anywhere in a row. */
  const SEALED_VALUE = /"r[1-9][0-9]*\.[a-z_]+\.v1\./;

  it("a sign-in's user is remembered as the session's first read would read it: its first call reads nothing", async () => {
    const account = await signUp(server);
    const token = await sessionToken(account.phone);
    const { sessionId, remembered, read } = await rememberedAndRead(token);
    expect(read?.session_method).toBe('password');
    expect(remembered).toEqual(read);
    // Ended behind the cache's back (no forget): the first call still answers, from memory.
    await server.app.ctx.db.deleteFrom('sessions').where('id', '=', sessionKey(sessionId)).execute();
    expect(await findLiveSession(server.app.ctx.db, sessionId)).toBeUndefined();
    expect((await call('GET', `${A}/profile`, undefined, { token })).status).toBe(200);
  });

  it("a pupil's card sign-in: the sealed record opened, the school's password demand and the session's own as read", async () => {
    const edu = eduSteps(server, call);
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    await edu.createPupils(teacher, classId, ['王小明']);
    const [badge = ''] = decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html).map(badgeOf);
    const answer = await call('POST', routes.signInByBadge.path, { badge, pid: PID });
    const { remembered, read } = await rememberedAndRead(expectSignedIn(answer).auth.token as string);
    expect(read?.session_method).toBe('badge');
    expect(read?.age_band).not.toBeNull();
    expect(remembered).toEqual(read);
    expect(JSON.stringify(remembered)).not.toMatch(SEALED_VALUE);
  });

  it('sign-ins at the same moment as a block: once the block has answered, none of their tokens is', async () => {
    // The block lands later each round: before the sign-ins read the account, among their sessions'
    // writes, after some have answered (how many depends on the machine's pace); in the last round
    // only once all have answered.
    for (const delayMs of [0, 5, 10, 15, 20, 25, 30, 35, 40, undefined]) {
      const account = await signUp(server);
      const body = { identity: account.phone, password: PASSWORD, pid: PID };
      const signIns = Promise.all(Array.from({ length: 8 }, () => call('POST', `${A}/login`, body)));
      if (delayMs === undefined) await signIns;
      else await sleep(delayMs);
      await blockUser(server, account.userId);
      const tokens = (await signIns).flatMap((answer) =>
        answer.status === 200 ? [expectSignedIn(answer).auth.token as string] : [],
      );
      if (delayMs === undefined) expect(tokens).toHaveLength(8);
      for (const token of tokens) {
        expectError(await call('GET', `${A}/profile`, undefined, { token }), 'AC3_44', ClientCode.ACCOUNT_BLOCKED);
      }
    }
  });

  it("a sign-in that signs agreements (a transaction of the caller's) is not remembered before it commits; its calls read it", async () => {
    const account = await signUp(server);
    const answer = await call('POST', `${A}/login`, {
      identity: account.phone,
      password: PASSWORD,
      pid: PID,
      agreement_ids: await agreementIdsInEffect(server),
    });
    const token = expectSignedIn(answer).auth.token as string;
    const { remembered, read } = await rememberedAndRead(token);
    expect(read?.session_method).toBe('password');
    expect(remembered).toBeUndefined();
    expect((await call('GET', `${A}/profile`, undefined, { token })).status).toBe(200);
    expect((await rememberedAndRead(token)).remembered).toEqual(read);
  });
});

describe('end a session (DELETE tokens)', () => {
  it('answers 204, clears the cookie and refuses the session’s tokens afterwards', async () => {
    const account = await signUp(server);
    const answer = await call('DELETE', T, { refresh_token: account.refresh }, { token: account.token });
    expect(answer.status).toBe(204);
    expect(authCookieOf(answer)?.value).toBe('');
    expectError(await call('GET', `${A}/profile`, undefined, { token: account.token }), 'E_0');
    expectError(await refresh(call, account.refresh), '10000001');
  });

  it('without a token is E_0', async () => {
    expectError(await call('DELETE', T), 'E_0');
  });
});

describe('convert a legacy cookie (POST tokens/convert)', () => {
  it('turns the authorization cookie into a working token set of the same session', async () => {
    const account = await signUp(server);
    const token = await sessionToken(account.phone);
    const answer = await call('POST', `${T}/convert`, undefined, { headers: { cookie: `authorization=${token}` } });
    expect(answer.status).toBe(200);
    const set = expectTokenSet(answer.body);
    expect((await call('GET', `${A}/profile`, undefined, { token: set.access.token })).status).toBe(200);
    expect((await refresh(call, set.refresh.token)).status).toBe(200);
    // Signing out of that session ends the converted tokens too.
    expect((await call('POST', `${A}/logout`, {}, { token })).status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: set.access.token }), 'E_0');
  });

  it('accepts the token as Bearer too', async () => {
    const account = await signUp(server);
    const answer = await call('POST', `${T}/convert`, undefined, { token: await sessionToken(account.phone) });
    expectTokenSet(answer.body);
  });

  it('without a cookie, with a bad one, or for an ended session is 10000002', async () => {
    expectError(await call('POST', `${T}/convert`), '10000002', ClientCode.COOKIE_INVALID);
    expectError(
      await call('POST', `${T}/convert`, undefined, { headers: { cookie: 'authorization=junk' } }),
      '10000002',
    );
    const account = await signUp(server);
    const token = await sessionToken(account.phone);
    await call('POST', `${A}/logout`, {}, { token });
    expectError(
      await call('POST', `${T}/convert`, undefined, { headers: { cookie: `authorization=${token}` } }),
      '10000002',
    );
  });

  it('for a blocked user is AC3_44', async () => {
    const account = await signUp(server);
    const token = await sessionToken(account.phone);
    await blockUser(server, account.userId);
    expectError(await call('POST', `${T}/convert`, undefined, { token }), 'AC3_44');
  });
});

describe('token paths: the accounts base, and the old token base as an alias', () => {
  it('the table puts the token calls under the accounts base, where the platform SDK calls them', () => {
    expect(T).toBe(`${ACCOUNTS_BASE}/tokens`);
    expect([routes.refreshTokens.path, routes.convertCookie.path, routes.deleteTokens.path]).toEqual([
      '/tiger/v3/web/accounts/tokens/refresh',
      '/tiger/v3/web/accounts/tokens/convert',
      '/tiger/v3/web/accounts/tokens',
    ]);
  });

  it('refresh, convert and delete still answer at /tiger/v3/web/tokens, with the same behaviour', async () => {
    const L = LEGACY_TOKENS_BASE;
    expect(L).toBe('/tiger/v3/web/tokens');
    const account = await signUp(server);
    const refreshed = await call('PUT', `${L}/refresh`, { refresh_token: account.refresh });
    const set = expectTokenSet(refreshed.body);
    expectError(await call('PUT', `${L}/refresh`, { refresh_token: `${account.refresh}x` }), '10000001');
    const token = await sessionToken(account.phone);
    const converted = await call('POST', `${L}/convert`, undefined, { headers: { cookie: `authorization=${token}` } });
    expectTokenSet(converted.body);
    expectError(await call('POST', `${L}/convert`), '10000002');
    const ended = await call('DELETE', L, { refresh_token: set.refresh.token }, { token: set.access.token });
    expect(ended.status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: set.access.token }), 'E_0');
    expectError(await call('DELETE', L), 'E_0');
  });
});

/**
 * The hourly sweep deletes what nothing can use any more, and nothing else: after it, every live
 * refresh token, session, code and ticket still works over HTTP.
 */
import type { TokenSet } from '@edupass/protocol';
import {
  A,
  type Account,
  codeFor,
  expectError,
  PASSWORD,
  PID,
  signIn,
  signUp,
  T,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { sweepOnce } from './housekeeping.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let offset = 0;
const { server, call } = useTestServer({}, { now: () => Date.now() + offset });
const db = () => server.app.ctx.db;

const refresh = (token: string) =>
  call<TokenSet>('PUT', `${T}/refresh`, { refresh_token: token }, { headers: TOKEN_SET_HEADERS });

const refreshTokensOf = async (userId: number) =>
  (
    await db()
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .select('refresh_tokens.token_hash')
      .where('sessions.user_id', '=', userId)
      .execute()
  ).length;

const sessionsOf = async (userId: number) =>
  (await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length;

const resetCode = (phone: string) => codeFor(server, 'captcha/password/reset', { phone_number: phone, pid: PID });

describe('the sweep', () => {
  let account: Account;
  let liveRefresh: string;

  it('a day on: expired codes, tickets, rate-limit windows and old outbox messages go; live ones work', async () => {
    offset = 0;
    account = await signUp(server);
    // A rotation (the rotated token stays: presenting it again is how a stolen copy is caught).
    const rotated = await refresh(account.refresh);
    expect(rotated.status).toBe(200);
    liveRefresh = rotated.body.refresh.token;
    // A second session, signed out: its row stays for the console's history.
    const other = await signIn(server, account.phone);
    expect((await call('POST', `${A}/logout`, {}, { token: other.access.token })).status).toBe(204);
    // A reset code checked into a ticket, and another code left unused.
    const checked = await call<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
      phone_number: account.phone,
      captcha: await resetCode(account.phone),
    });
    expect(checked.status).toBe(200);
    await resetCode(account.phone);
    expect(await server.lastCode(account.phone)).toBeDefined();

    offset = DAY + HOUR;
    const fresh = await resetCode(account.phone); // sent a day later: must survive
    await sweepOnce(server.app.ctx);

    // The expired ticket is refused as before, and is gone.
    expectError(
      await call('PATCH', `${A}/password/reset`, {
        ticket: checked.body.ticket,
        password: 'Another123',
        confirm_password: 'Another123',
      }),
      'AC3_27',
    );
    expect(await db().selectFrom('tickets').select('id_hash').execute()).toEqual([]);
    // Day-old outbox messages and rate-limit windows are gone; the fresh code's are not.
    const outbox = await db().selectFrom('outbox').select('code').where('recipient', '=', account.phone).execute();
    expect(outbox.map((row) => row.code)).toEqual([fresh]);
    const counters = await db().selectFrom('counters').select('expires_at').execute();
    expect(counters.length).toBeGreaterThan(0);
    for (const counter of counters) expect(Number(counter.expires_at)).toBeGreaterThan(Date.now() + offset);
    // Refresh tokens (not expired) and both sessions stay.
    expect(await refreshTokensOf(account.userId)).toBe(3);
    expect(await sessionsOf(account.userId)).toBe(2);

    // The fresh code still checks; the refresh chain still rotates.
    const again = await call<{ ticket: string }>('POST', `${A}/captcha/password/check`, {
      phone_number: account.phone,
      captcha: fresh,
    });
    expect(again.status).toBe(200);
    const next = await refresh(liveRefresh);
    expect(next.status).toBe(200);
    liveRefresh = next.body.refresh.token;
  });

  it('past REFRESH_TOKEN_TTL: expired refresh tokens and long-ended sessions go; the live chain goes on', async () => {
    offset = server.config.refreshTokenTtlSeconds * 1000 + 2 * HOUR;
    await sweepOnce(server.app.ctx);
    // Left: the live session and the successor issued a day in (expires a day after the rest).
    expect(await sessionsOf(account.userId)).toBe(1);
    expect(await refreshTokensOf(account.userId)).toBe(1);
    expectError(await refresh(account.refresh), '10000001');
    const next = await refresh(liveRefresh);
    expect(next.status).toBe(200);
    const profile = await call('GET', `${A}/profile`, undefined, { token: next.body.access.token });
    expect(profile.status).toBe(200);
    // And the password still signs in.
    expect((await signIn(server, account.phone, PASSWORD)).access.token).toBeTruthy();
  });

  it('deletes a backlog larger than one batch', async () => {
    offset = 0;
    const { userId } = await signUp(server);
    const session = await db()
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const expired = Array.from({ length: 12_001 }, (_, i) => ({
      token_hash: `expired-${userId}-${i}`,
      session_id: session.id,
      created_at: 1,
      expires_at: 2,
    }));
    for (let i = 0; i < expired.length; i += 4_000) {
      await db()
        .insertInto('refresh_tokens')
        .values(expired.slice(i, i + 4_000))
        .execute();
    }
    expect(await refreshTokensOf(userId)).toBe(12_002);
    await sweepOnce(server.app.ctx);
    expect(await refreshTokensOf(userId)).toBe(1);
  });

  it('audit and access-log rows past their retention go; newer ones stay', async () => {
    offset = 0;
    const now = server.app.ctx.now();
    const auditCutoff = now - server.config.auditRetentionDays * DAY;
    const logCutoff = now - server.config.accessLogRetentionDays * DAY;
    const audit = (action: string, at: number) => ({ operator_id: 1, action, target: 'user:1', detail: '', at });
    await db()
      .insertInto('admin_audit')
      .values([audit('retention.old', auditCutoff - HOUR), audit('retention.new', auditCutoff + HOUR)])
      .execute();
    const read = (purpose: string, created_at: number) => ({
      reader_id: 1,
      subject_id: 2,
      fields: 'name',
      purpose,
      created_at,
    });
    await db()
      .insertInto('edu_access_log')
      .values([read('retention.old', logCutoff - HOUR), read('retention.new', logCutoff + HOUR)])
      .execute();
    expect(await sweepOnce(server.app.ctx)).toBe(true);
    const actions = await db()
      .selectFrom('admin_audit')
      .select('action')
      .where('action', 'like', 'retention.%')
      .execute();
    expect(actions.map((row) => row.action)).toEqual(['retention.new']);
    const reads = await db()
      .selectFrom('edu_access_log')
      .select('purpose')
      .where('purpose', 'like', 'retention.%')
      .execute();
    expect(reads.map((row) => row.purpose)).toEqual(['retention.new']);
  });

  it('security events, consent records of ended accounts and export zips past their retention go, in batches', async () => {
    offset = 0;
    const now = server.app.ctx.now();
    const { userId } = await signUp(server);
    const eventsCutoff = now - server.config.securityEventRetentionDays * DAY;
    // A backlog larger than one batch of old events, and one inside the retention.
    const old = Array.from({ length: 6_001 }, (_, i) => ({
      user_id: userId,
      event: 'login_failed',
      reason: `retention ${i}`,
      ip: '',
      at: eventsCutoff - HOUR,
    }));
    for (let i = 0; i < old.length; i += 3_000) {
      await db()
        .insertInto('security_events')
        .values(old.slice(i, i + 3_000))
        .execute();
    }
    await db()
      .insertInto('security_events')
      .values({ user_id: userId, event: 'login_failed', reason: 'retention new', ip: '', at: eventsCutoff + HOUR })
      .execute();
    // Consent records: of an account that ended long ago (gone), one that ended lately, and a live one.
    const consentCutoff = now - server.config.consentEvidenceRetentionYears * 365 * DAY;
    const consent = (child_id: number, account_ended_at: number | null) => ({
      child_id,
      guardian_id: null,
      method: 'sms',
      text_version: 1,
      scopes: 'retention',
      decision: 'granted' as const,
      created_at: 1,
      account_ended_at,
    });
    await db()
      .insertInto('guardian_consents')
      .values([consent(900_001, consentCutoff - HOUR), consent(900_002, consentCutoff + HOUR), consent(userId, null)])
      .execute();
    // Export zips: one whose link ran out, one still live.
    const exported = (link_expires_at: number) => ({
      user_id: userId,
      requested_by: 'user' as const,
      requester_id: userId,
      lang: 'en',
      state: 'ready' as const,
      file: Buffer.from('zip'),
      link_expires_at,
      created_at: now - DAY,
    });
    await db()
      .insertInto('data_exports')
      .values([exported(now - HOUR), exported(now + HOUR)])
      .execute();

    expect(await sweepOnce(server.app.ctx)).toBe(true);
    const events = await db().selectFrom('security_events').select('reason').where('user_id', '=', userId).execute();
    expect(events.map((row) => row.reason)).toEqual(['retention new']);
    const consents = await db()
      .selectFrom('guardian_consents')
      .select('child_id')
      .where('scopes', '=', 'retention')
      .orderBy('child_id')
      .execute();
    expect(consents.map((row) => Number(row.child_id)).sort()).toEqual([900_002, userId].sort());
    const exports = await db()
      .selectFrom('data_exports')
      .select(['state', 'file', 'link_expires_at'])
      .where('user_id', '=', userId)
      .orderBy('link_expires_at')
      .execute();
    expect(exports.map((row) => [row.state, row.file === null])).toEqual([
      ['expired', true],
      ['ready', false],
    ]);
  });
});

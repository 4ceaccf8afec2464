/**
 * Nothing grows forever: the hourly sweep deletes sessions nobody signed out once nothing can use
 * them, school sign-ins of ended sessions, login cards ended past their month, and deliveries left
 * waiting for an endpoint that is off (with an audit row per endpoint); a row of each inside its time
 * stays. Each delete finds its rows through an index, and each sweep's rows are counted in a metric.
 */
import { signUp } from '@edupass/test-kit/accounts';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { useTestServer } from '@edupass/test-kit/harness';
import { type Compilable, CompiledQuery, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { endedBadgesQuery } from '../../store/edu/school/pupils.ts';
import { expiredModelsQuery } from '../../store/identity/oidc-models.ts';
import { begunSessionsQuery, endedSessionsQuery, endedSignInsQuery } from '../../store/sessions/session-sweep.ts';
import { sweepOnce } from './housekeeping.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const { server } = useTestServer({ webhookDisabledKeepDays: 30 });
const db = () => server.app.ctx.db;
const now = () => server.app.ctx.now();

/**
 * Sweeps once this process holds the lock (the server's own first sweep may still hold it); throws if
 * it was not had within 20 s. Usable in a hook too (`expect.poll` is not).
 */
const sweep = async () => {
  for (const deadline = Date.now() + 20_000; !(await sweepOnce(server.app.ctx)); ) {
    if (Date.now() > deadline) throw new Error('the sweep lock was held by another sweep for 20 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

// The server's own first sweep is over before a test writes its rows: one still under way read a test's
// aged session after it was written and deleted it before the test wrote the session's school sign-in,
// which no sweep finds after (a sign-in of no session: seen once in CI, on PostgreSQL under load).
beforeAll(sweep);

/** What `edupass_sweep_rows_total` has counted for `rows` so far. */
const counted = async (rows: string) =>
  (await server.app.ctx.metrics.sweepRows.get()).values.find((v) => v.labels.rows === rows)?.value ?? 0;

const session = (id: string, user_id: number, created_at: number, revoked_at: number | null) => ({
  id,
  user_id,
  method: 'password',
  ip: '',
  user_agent: '',
  created_at,
  revoked_at,
  pid: null,
  second_factor_at: null,
});

const signInOf = (session_key: string, user_id: number) => ({
  ticket_hash: `ticket-${session_key}`,
  connector_id: 1,
  user_id,
  session_key,
  created_at: now() - DAY,
});

/** The one column of `rows`, sorted. */
const idsOf = async (rows: Promise<Record<string, unknown>[]>) =>
  (await rows).map((row) => String(Object.values(row)[0])).sort();

describe('sessions and school sign-ins', () => {
  it('a session never signed out goes once past its absolute age and its tokens’ life, with its refresh tokens and school sign-in; a younger one stays', async () => {
    const { userId } = await signUp(server);
    await db()
      .insertInto('sessions')
      .values([
        session('aged-400', userId, now() - 400 * DAY, null),
        session('aged-80', userId, now() - 80 * DAY, null),
      ])
      .execute();
    await db()
      .insertInto('refresh_tokens')
      .values({
        token_hash: 'aged-400-token',
        session_id: 'aged-400',
        created_at: now() - 400 * DAY,
        expires_at: now() + DAY,
      })
      .execute();
    await db()
      .insertInto('school_sign_ins')
      .values([signInOf('aged-400', userId), signInOf('aged-80', userId)])
      .execute();
    const before = await counted('sessionsPastMaxAge');

    await sweep();
    expect(await idsOf(db().selectFrom('sessions').select('id').where('id', 'like', 'aged-%').execute())).toEqual([
      'aged-80',
    ]);
    expect(
      await db().selectFrom('refresh_tokens').select('token_hash').where('session_id', '=', 'aged-400').execute(),
    ).toEqual([]);
    expect(
      await idsOf(
        db()
          .selectFrom('school_sign_ins')
          .select('ticket_hash')
          .where('ticket_hash', 'like', 'ticket-aged-%')
          .execute(),
      ),
    ).toEqual(['ticket-aged-80']);
    expect(await counted('sessionsPastMaxAge')).toBeGreaterThanOrEqual(before + 1);
  });

  it('the school sign-in of a session that ended goes at the next sweep; a live session’s stays', async () => {
    const { userId } = await signUp(server);
    await db()
      .insertInto('sessions')
      .values([
        session('school-ended', userId, now() - DAY, now() - HOUR),
        session('school-live', userId, now() - DAY, null),
      ])
      .execute();
    await db()
      .insertInto('school_sign_ins')
      .values([signInOf('school-ended', userId), signInOf('school-live', userId)])
      .execute();
    await sweep();
    expect(
      await idsOf(
        db()
          .selectFrom('school_sign_ins')
          .select('ticket_hash')
          .where('ticket_hash', 'like', 'ticket-school-%')
          .execute(),
      ),
    ).toEqual(['ticket-school-live']);
    // The ended session itself stays for the console's list until REFRESH_TOKEN_TTL after its end.
    expect(await idsOf(db().selectFrom('sessions').select('id').where('id', 'like', 'school-%').execute())).toEqual([
      'school-ended',
      'school-live',
    ]);
  });
});

describe('login cards', () => {
  it('a card ended more than a month ago goes; one ended lately and a live one stay', async () => {
    const { userId } = await signUp(server);
    const badge = (token_hash: string, revoked_at: number | null) => ({
      token_hash,
      user_id: userId,
      created_at: now() - 90 * DAY,
      revoked_at,
      class_id: null,
    });
    await db()
      .insertInto('sign_in_badges')
      .values([
        badge('badge-old', now() - 31 * DAY),
        badge('badge-lately', now() - 29 * DAY),
        badge('badge-live', null),
      ])
      .execute();
    const before = await counted('endedCards');
    await sweep();
    expect(
      await idsOf(db().selectFrom('sign_in_badges').select('token_hash').where('user_id', '=', userId).execute()),
    ).toEqual(['badge-lately', 'badge-live']);
    expect(await counted('endedCards')).toBeGreaterThanOrEqual(before + 1);
  });
});

describe('deliveries waiting for an endpoint that is off', () => {
  const endpoint = async (url: string, enabled: number) =>
    Number(
      (
        await db()
          .insertInto('webhook_endpoints')
          .values({
            pid: 'edupass',
            url,
            events: 'user.updated',
            secret_sealed: '',
            enabled,
            disabled_reason: enabled ? '' : 'failing',
            consecutive_failures: 0,
            failing_since: null,
            created_at: now() - 60 * DAY,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const delivery = async (endpointId: number, eventId: string, ageDays: number) => {
    await db()
      .insertInto('webhook_events')
      .values({ id: eventId, type: 'user.updated', pid: 'edupass', payload: '{}', created_at: now() - ageDays * DAY })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return Number(
      (
        await db()
          .insertInto('webhook_deliveries')
          .values({
            event_id: eventId,
            endpoint_id: endpointId,
            status: 'pending',
            attempts: 0,
            // Not due for a long while: the worker leaves an enabled endpoint's delivery alone.
            next_attempt_at: now() + 365 * DAY,
            give_up_at: now() + 366 * DAY,
            lease_holder: null,
            lease_until: null,
            created_at: now() - ageDays * DAY,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  };
  const waiting = async (endpointId: number) =>
    (
      await db()
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .where('endpoint_id', '=', endpointId)
        .orderBy('event_id')
        .execute()
    ).map((row) => row.event_id);
  const drops = (endpointId: number) =>
    db()
      .selectFrom('admin_audit')
      .select(['operator_id', 'detail'])
      .where('action', '=', 'webhook.drop')
      .where('target', '=', `webhook:${endpointId}`)
      .execute();

  it('past WEBHOOK_DISABLED_KEEP_DAYS they go, with their attempts and an audit row per endpoint naming how many; newer ones and an enabled endpoint’s stay', async () => {
    const off = await endpoint('https://off.example/hook', 0);
    const alsoOff = await endpoint('https://also-off.example/hook', 0);
    const on = await endpoint('https://on.example/hook', 1);
    const old = await delivery(off, 'msg_off_old_1', 40);
    await delivery(off, 'msg_off_old_2', 31);
    await delivery(off, 'msg_off_new', 29);
    await delivery(alsoOff, 'msg_also_off_old', 35);
    await delivery(on, 'msg_on_old', 40);
    await db()
      .insertInto('webhook_attempts')
      .values({ delivery_id: old, at: now() - 40 * DAY, duration_ms: 1, response_status: 500, error: '', ok: 0 })
      .execute();
    const before = await counted('webhookWaitingDropped');

    await sweep();
    expect(await waiting(off)).toEqual(['msg_off_new']);
    expect(await waiting(alsoOff)).toEqual([]);
    expect(await waiting(on)).toEqual(['msg_on_old']);
    expect(await db().selectFrom('webhook_attempts').select('id').where('delivery_id', '=', old).execute()).toEqual([]);
    expect(await drops(off)).toEqual([{ operator_id: 0, detail: expect.stringMatching(/^2 deliveries dropped/) }]);
    expect(await drops(alsoOff)).toEqual([{ operator_id: 0, detail: expect.stringMatching(/^1 deliveries dropped/) }]);
    expect(await drops(on)).toEqual([]);
    expect(await counted('webhookWaitingDropped')).toBeGreaterThanOrEqual(before + 3);

    // A sweep that drops nothing writes no audit row.
    await sweep();
    expect(await drops(off)).toHaveLength(1);
  });
});

describe('each delete finds its rows through an index', () => {
  /** The plan of `query` with sequential scans priced out: an index that serves it shows by name. */
  const planOf = async (query: Compilable) => {
    const { sql: text, parameters } = query.compile();
    if (testDatabaseKind() === 'sqlite') {
      const plan = await db().executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
      );
      return plan.rows.map((row) => row.detail).join('\n');
    }
    return db()
      .transaction()
      .execute(async (tx) => {
        await sql`set local enable_seqscan = off`.execute(tx);
        const plan = await tx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${text}`, [...parameters]),
        );
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
  };

  it.each([
    ['sessions past their absolute age', () => begunSessionsQuery(db(), now()), /sessions_live_created/],
    ['sessions ended long ago', () => endedSessionsQuery(db(), now()), /sessions_revoked/],
    [
      'school sign-ins of sessions ended lately',
      () => endedSignInsQuery(db(), now() - HOUR),
      /sessions_revoked[\s\S]*school_sign_ins_session|school_sign_ins_session[\s\S]*sessions_revoked/,
    ],
    ['ended login cards', () => endedBadgesQuery(db(), now()), /sign_in_badges_revoked/],
    ['provider rows past their expiry', () => expiredModelsQuery(db(), now()), /oidc_models_expiry/],
  ])('%s', async (_name, query, index) => {
    const plan = await planOf(query());
    expect(plan, plan).toMatch(index);
    // A whole table read: PostgreSQL's `Seq Scan`, SQLite's `SCAN` (a search through an index is `SEARCH`).
    expect(plan, plan).not.toMatch(/Seq Scan|^SCAN /m);
  });
});

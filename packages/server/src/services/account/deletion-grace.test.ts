/**
 * Deletion with a grace period, over HTTP on the real server: deleting freezes the account at once
 * (every credential refused the moment the deletion is answered: the access token, a refresh token,
 * an application's refresh token, the profile read from memory, `@edupass/node` introspection; sites
 * hear `user.deletion_scheduled`; signing in answers E_16 and the phone stays taken); signing in and
 * confirming within the grace keeps everything; at its end the sweep erases the account, and a scan of
 * every table of the live schema and of the events store finds nothing of the user, the S3 picture is
 * gone, sites hear `user.deleted`, and the phone registers afresh. An operator's deletion is the same,
 * audited.
 */
import { randomUUID } from 'node:crypto';
import { createVerifier } from '@edupass/node';
import { DAY_MS, type DeletionScheduled, type NewWebhookEndpoint, type WireError } from '@edupass/protocol';
import {
  A,
  type Account,
  agreementIdsInEffect,
  auditorToken,
  codeFor,
  expectError,
  expectSignedIn,
  PASSWORD,
  PID,
  signIn,
  signInOperator,
  signUp,
  signUpAgreed,
  T,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { testEventsKind } from '@edupass/test-kit/clickhouse-database';
import { useTestServer } from '@edupass/test-kit/harness';
import { registerApp } from '@edupass/test-kit/oidc-apps';
import { appTokensFor } from '@edupass/test-kit/oidc-flow';
import { rowsNaming } from '@edupass/test-kit/person-traces';
import { type S3Peer, s3Avatars, startS3Peer } from '@edupass/test-kit/s3-peer';
import { usageEventRow } from '@edupass/test-kit/usage-rows';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import * as oidc from 'openid-client';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { sweepOnce } from '../platform/housekeeping.ts';

const GRACE_DAYS = 15;
const INTROSPECTION_SECRET = 'grace-introspection-secret-0123456789';
const CALLBACK = 'https://courses.example.com/callback';

let peer: S3Peer;
let clock = Date.now();
// Before the server's own beforeAll, which reads the bucket's address.
beforeAll(async () => {
  peer = await startS3Peer();
});
const { server, call } = useTestServer(
  {
    accountDeletionGraceDays: GRACE_DAYS,
    // Sessions stay remembered in memory for a minute: the frozen account must be refused anyway.
    sessionCacheSeconds: 60,
    // The clock moves past the grace period: the operator's token lives through it.
    accessTokenTtlSeconds: 90 * 86_400,
    introspectionSecrets: { [PID]: INTROSPECTION_SECRET },
    webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400 * 60_000 },
    get avatars() {
      return s3Avatars(peer);
    },
  },
  { now: () => clock },
);

let operator: { token: string; userId: number };
let receiver: WebhookReceiver;
let endpoint: NewWebhookEndpoint;
let app: { id: string; secret: string };

beforeAll(async () => {
  server.app.ctx.config.publicUrl = server.url;
  const signedIn = await signInOperator(server);
  operator = { token: signedIn.token, userId: 0 };
  receiver = await startWebhookReceiver();
  const added = await call<NewWebhookEndpoint>(
    'POST',
    '/admin/webhooks',
    {
      product: PID,
      url: receiver.url,
      events: ['user.deletion_scheduled', 'user.deletion_cancelled', 'user.deleted', 'session.ended'],
    },
    { token: operator.token },
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  endpoint = added.body;
  const made = await registerApp(server, { name: 'Courses', redirect_uris: [CALLBACK] }, operator.token);
  app = { id: made.application.client_id, secret: String(made.client_secret) };
});
// Each test starts at the real time (the agreements in effect were seeded then) and moves on by days.
beforeEach(() => {
  clock = Date.now();
});
afterAll(async () => {
  await receiver?.close();
  await peer?.close();
});

type Delivered = { type: string; data: Record<string, unknown> & { user_id: number } };

/** The verified webhook events of `type` about `userId`, once at least one has arrived. */
const eventsOf = async (type: string, userId: number) => {
  const verifier = new Webhook(endpoint.secret);
  const verify = (received: (typeof receiver.received)[number]): Delivered => {
    // The reference implementation checks the timestamp against the system clock, which here is the
    // time the message was sent (the server's clock moves on by days).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Number(received.headers['webhook-timestamp']) * 1000);
    try {
      return verifier.verify(received.body, received.headers as Record<string, string>) as Delivered;
    } finally {
      vi.useRealTimers();
    }
  };
  const found = () => receiver.received.map(verify).filter((e) => e.type === type && e.data.user_id === userId);
  await expect.poll(() => found().length, { timeout: 20_000 }).toBeGreaterThan(0);
  return found();
};

const login = (phone: string) =>
  call<WireError & DeletionScheduled>(
    'POST',
    `${A}/login`,
    { identity: phone, password: PASSWORD, pid: PID },
    { headers: TOKEN_SET_HEADERS },
  );

const profile = (token: string) =>
  call<{ id: number; avatar_url: string }>('GET', `${A}/profile`, undefined, { token });

const photo = () =>
  sharp({ create: { width: 320, height: 320, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();

const uploadAvatar = async (user: Account) => {
  const image = `data:image/png;base64,${(await photo()).toString('base64')}`;
  const answer = await call<{ avatar_url: string }>('POST', `${A}/avatar`, { image }, { token: user.token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.avatar_url.split('/').at(-1) ?? '';
};

const signInToApp = (user: Account) => appTokensFor(server, app, CALLBACK, user.token);

const verifier = () =>
  createVerifier({
    issuer: server.config.publicUrl,
    jwksUrl: `${server.url}/.well-known/jwks.json`,
    audience: PID,
    introspection: { url: `${server.url}/introspect`, clientId: PID, clientSecret: INTROSPECTION_SECRET },
  });

const usageEventsOf = async (userId: number) => {
  const events = server.app.ctx.events;
  await events.shipSpool();
  const all = await events.eventsAfter(undefined, 100_000);
  return all.filter((event) => event.user_id === String(userId)).length;
};

const addUsageEvents = (userId: number, count: number) =>
  server.app.ctx.events.write({
    events: Array.from({ length: count }, (_, n) =>
      usageEventRow({
        product_code: 'edupass',
        event_key: 'lesson_open',
        at: clock - n * 1000,
        received_at: clock,
        user_id: String(userId),
        device_uid: `device-${userId}`,
      }),
    ),
    beacons: [],
  });

const deleteOwnAccount = async (user: Account) => {
  const answer = await call('DELETE', `${A}/account`, undefined, { token: user.token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(204);
};

const sweepAt = async (at: number) => {
  clock = at;
  expect(await sweepOnce(server.app.ctx)).toBe(true);
};

/**
 * The `server-clickhouse` project runs this file once more for the erasure alone (the user's usage events
 * taken from whichever store holds them): freezing and keeping an account read no usage event, and run
 * on SQLite and PostgreSQL already.
 */
const eventsInClickHouse = testEventsKind() === 'clickhouse';

describe.skipIf(eventsInClickHouse)('deleting freezes the account at once', () => {
  test('every credential is refused the moment the deletion is answered; sites are told; sign-in answers E_16', async () => {
    const user = await signUpAgreed(server);
    const device = await signIn(server, user.phone);
    const { config, tokens } = await signInToApp(user);
    const check = verifier();
    // Before: everything works, and the profile read is remembered in memory.
    expect((await profile(user.token)).status).toBe(200);
    expect((await profile(device.access.token)).status).toBe(200);
    expect(await check.introspect(device.access.token)).toMatchObject({ active: true });
    const answeredBefore = server.app.rememberedProfile.answered;
    expect((await profile(device.access.token)).status).toBe(200);
    expect(server.app.rememberedProfile.answered).toBe(answeredBefore + 1);

    await deleteOwnAccount(user);

    // No waiting: each is refused on the first try after the answer.
    expectError(await profile(user.token), 'E_0');
    expectError(await profile(device.access.token), 'E_0');
    expectError(await call('PUT', `${T}/refresh`, { refresh_token: device.refresh.token }), '10000001');
    expect(await check.introspect(device.access.token)).toEqual({ active: false });
    await expect(oidc.refreshTokenGrant(config, String(tokens.refresh_token))).rejects.toThrow();
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);

    const scheduled = await eventsOf('user.deletion_scheduled', user.userId);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]?.data).toMatchObject({ erase_at: clock + GRACE_DAYS * DAY_MS, deleted_by: 'user' });

    const refused = await login(user.phone);
    expectError(refused, 'E_16');
    expect(refused.body.erase_at).toBe(clock + GRACE_DAYS * DAY_MS);
    expect(refused.body.deletion_ticket).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(refused.headers.get('set-cookie')).toBeNull();

    // The phone is still the account's: it cannot register another one yet.
    const send = await call('POST', `${A}/captcha/register/phone/with-agreement`, {
      phone_number: user.phone,
      pid: PID,
    });
    expectError(send, 'AC3_0');
  });

  test('deleting again while it waits changes nothing: one event, the first date', async () => {
    const user = await signUp(server);
    const first = clock;
    await call('DELETE', `/admin/users/${user.userId}`, undefined, { token: operator.token });
    await eventsOf('user.deletion_scheduled', user.userId);
    clock += DAY_MS;
    expect((await call('DELETE', `/admin/users/${user.userId}`, undefined, { token: operator.token })).status).toBe(
      204,
    );
    expectError(await login(user.phone), 'E_16');
    expect((await login(user.phone)).body.erase_at).toBe(first + GRACE_DAYS * DAY_MS);
    const written = await server.app.ctx.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'user.deletion_scheduled')
      .execute();
    expect(written.filter((row) => (JSON.parse(row.payload) as Delivered).data.user_id === user.userId)).toHaveLength(
      1,
    );
  });
});

describe.skipIf(eventsInClickHouse)('keeping the account within the grace period', () => {
  test('signing in and confirming restores everything; the sweep then leaves it be', async () => {
    const user = await signUp(server);
    const avatar = await uploadAvatar(user);
    await addUsageEvents(user.userId, 3);
    await deleteOwnAccount(user);
    clock += (GRACE_DAYS - 1) * DAY_MS;

    const refused = await login(user.phone);
    expectError(refused, 'E_16');
    const kept = await call(
      'POST',
      `${A}/account/deletion/cancel`,
      { deletion_ticket: refused.body.deletion_ticket },
      {
        headers: TOKEN_SET_HEADERS,
      },
    );
    const signedIn = expectSignedIn(kept, user.phone);
    expect(signedIn.user_info.id).toBe(user.userId);
    // The ticket was spent.
    expectError(
      await call('POST', `${A}/account/deletion/cancel`, { deletion_ticket: refused.body.deletion_ticket }),
      'AC3_27',
    );
    expect(await eventsOf('user.deletion_cancelled', user.userId)).toHaveLength(1);

    // Past the date it would have been erased on: everything is still there.
    await sweepAt(clock + 2 * DAY_MS);
    const token = (await signIn(server, user.phone)).access.token;
    const read = await profile(token);
    expect(read.status).toBe(200);
    expect(read.body.avatar_url.endsWith(avatar)).toBe(true);
    expect(peer.objects.has(avatar)).toBe(true);
    expect(await usageEventsOf(user.userId)).toBe(3);
  });

  test('two confirmations with one ticket: one signs in, the other is refused', async () => {
    const user = await signUp(server);
    await deleteOwnAccount(user);
    const ticket = (await login(user.phone)).body.deletion_ticket;
    const answers = await Promise.all(
      [0, 1, 2].map(() => call('POST', `${A}/account/deletion/cancel`, { deletion_ticket: ticket })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    expect(await eventsOf('user.deletion_cancelled', user.userId)).toHaveLength(1);
  });

  test('a made-up ticket is refused', async () => {
    expectError(await call('POST', `${A}/account/deletion/cancel`, { deletion_ticket: randomUUID() }), 'AC3_27');
    expectError(await call('POST', `${A}/account/deletion/cancel`, {}), 'E_1');
  });
});

describe('erased when the grace period ends', () => {
  test('nothing of the user is left in any table or store, and the phone registers afresh', async () => {
    const user = await signUpAgreed(server);
    const avatar = await uploadAvatar(user);
    await signInToApp(user);
    await signIn(server, user.phone);
    await addUsageEvents(user.userId, 5);
    // A code waiting for the phone, and a webhook log about the user.
    await codeFor(server, 'captcha/login/post-process', { phone_number: user.phone, pid: PID });
    const person = { id: user.userId, phone: user.phone, email: null };
    const db = server.app.ctx.db;
    const dialect = server.app.ctx.store.dialect;
    // The scan sees the user everywhere before (so it can see what would be left after).
    const before = await rowsNaming(db, dialect, person);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['users', 'sessions', 'agreement_signatures', 'codes', 'oidc_models']),
    );
    expect(await usageEventsOf(user.userId)).toBe(5);

    const deletedAt = clock;
    await deleteOwnAccount(user);
    // A day before the end: still there, still frozen.
    await sweepAt(deletedAt + (GRACE_DAYS - 1) * DAY_MS);
    expectError(await login(user.phone), 'E_16');

    await sweepAt(deletedAt + GRACE_DAYS * DAY_MS + 1);
    expect(await rowsNaming(db, dialect, person)).toEqual({});
    await expect.poll(() => usageEventsOf(user.userId), { timeout: 30_000 }).toBe(0);
    expect(peer.objects.has(avatar)).toBe(false);
    const deleted = await eventsOf('user.deleted', user.userId);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.data.deleted_by).toBe('user');
    expectError(await login(user.phone), 'AC3_2');

    const again = await signUp(server, user.phone, PASSWORD, await agreementIdsInEffect(server));
    expect(again.userId).not.toBe(user.userId);
  });

  test("an operator's deletion takes the same path and is audited", async () => {
    const user = await signUp(server);
    const deletedAt = clock;
    expect((await call('DELETE', `/admin/users/${user.userId}`, undefined, { token: operator.token })).status).toBe(
      204,
    );
    expectError(await profile(user.token), 'E_0');
    expectError(await login(user.phone), 'E_16');
    const audit = await call<{ action: string; target: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(audit.body).toContainEqual(
      expect.objectContaining({ action: 'user.delete', target: `user:${user.userId}` }),
    );
    expect((await eventsOf('user.deletion_scheduled', user.userId))[0]?.data.deleted_by).toBe('operator');

    await sweepAt(deletedAt + GRACE_DAYS * DAY_MS + 1);
    expect(
      await rowsNaming(server.app.ctx.db, server.app.ctx.store.dialect, { ...user, email: null, id: user.userId }),
    ).toEqual({});
    expect((await eventsOf('user.deleted', user.userId))[0]?.data.deleted_by).toBe('operator');
  });
});

/**
 * Webhooks against the real server over HTTP, on SQLite and PostgreSQL: deliveries checked by the
 * `standardwebhooks` package (an implementation we did not write), a receiver that was down gets
 * every event afterwards once each, two app instances on one database deliver each event once, and
 * a change that rolls back leaves no event. The clock is injected: back-off is crossed by moving it.
 */
import type { NewWebhookEndpoint, WebhookDelivery } from '@edupass/protocol';
import { A, type Account, PASSWORD, PID, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { saveUser } from '../account/users.ts';

const HOUR = 3_600_000;
let clock = Date.now();
const { server, call } = useTestServer(
  // The clock moves by days here: the operator's token outlives them.
  { webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000 }, accessTokenTtlSeconds: 365 * 86_400 },
  { now: () => clock },
);
let operator: string;

beforeAll(async () => {
  operator = (await signInOperator(server)).token;
});

const addEndpoint = async (url: string, events: string[] = ['*']) => {
  const all = events[0] === '*';
  const answer = await call<NewWebhookEndpoint>(
    'POST',
    '/admin/webhooks',
    {
      product: PID,
      url,
      events: all
        ? [
            'user.created',
            'user.updated',
            'user.blocked',
            'session.started',
            'session.ended',
            'password.changed',
            'phone.changed',
            'agreement.signed',
          ]
        : events,
    },
    { token: operator },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

const removeEndpoint = (id: number) => call('POST', `/admin/webhooks/${id}/remove`, {}, { token: operator });

/** Verifies with the reference implementation, whose timestamp check reads the system clock: set to ours. */
const verified = (secret: string, received: { headers: Record<string, unknown>; body: string }) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock);
  try {
    return new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
  } finally {
    vi.useRealTimers();
  }
};

const idsOf = (receiver: WebhookReceiver) => receiver.received.map((r) => String(r.headers['webhook-id']));

const deliveriesOf = async (endpointId: number) =>
  (
    await call<WebhookDelivery[]>('GET', `/admin/webhooks/${endpointId}/deliveries?limit=200`, undefined, {
      token: operator,
    })
  ).body;

describe('deliveries', () => {
  let receiver: WebhookReceiver;
  let endpoint: NewWebhookEndpoint;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    endpoint = await addEndpoint(receiver.url);
  });
  afterAll(async () => {
    await removeEndpoint(endpoint.id);
    await receiver.close();
  });

  test('account changes arrive signed per Standard Webhooks, with what changed and no secret', async () => {
    expect(endpoint.secret).toMatch(/^whsec_/);
    const user = await signUp(server);
    expect((await call('PATCH', `${A}/info`, { nickname: `hook${user.userId}` }, { token: user.token })).status).toBe(
      204,
    );
    const changed = await call(
      'PATCH',
      `${A}/password`,
      { old_password: PASSWORD, password: 'Heron31415', confirm_password: 'Heron31415' },
      { token: user.token },
    );
    expect(changed.status).toBe(204);
    expect((await call('POST', `/admin/users/${user.userId}/block`, {}, { token: operator })).status).toBe(204);

    const wanted = [
      'user.created',
      'session.started',
      'user.updated',
      'password.changed',
      'session.ended',
      'user.blocked',
    ];
    await vi.waitFor(
      () => {
        const types = receiver.received.map((r) => verified(endpoint.secret, r).type);
        expect(types).toEqual(expect.arrayContaining(wanted));
      },
      { timeout: 20_000, interval: 50 },
    );
    const events = receiver.received.map((r) => verified(endpoint.secret, r));
    for (const event of events) expect(event.data).toMatchObject({ user_id: user.userId, product: PID });
    expect(events.find((e) => e.type === 'user.updated')?.data.changes).toEqual({ nickname: `hook${user.userId}` });
    expect(events.find((e) => e.type === 'password.changed')?.data).toMatchObject({ sessions_ended: true });
    const bodies = receiver.received.map((r) => r.body).join('\n');
    expect(bodies).not.toContain('Heron31415');
    expect(bodies).not.toContain('password_hash');
    expect(bodies).not.toContain(user.phone);
    // A forged or altered delivery does not verify.
    const first = receiver.received[0];
    if (first === undefined) throw new Error('nothing received');
    expect(() => verified(endpoint.secret, { ...first, body: first.body.replace('user', 'usex') })).toThrow();
    // The receiver has the request before the server has its answer recorded: wait for the log.
    await vi.waitFor(
      async () => {
        const log = await deliveriesOf(endpoint.id);
        expect(log.map((d) => [d.status, d.last_attempt?.response_status])).toEqual(log.map(() => ['delivered', 204]));
      },
      { timeout: 20_000, interval: 50 },
    );
  });

  test('a receiver that was down gets every event afterwards, once each', async () => {
    await receiver.goDown();
    const before = receiver.received.length;
    const users: Account[] = [];
    for (let i = 0; i < 3; i++) users.push(await signUp(server));
    // Each sign-up: user.created and session.started, each tried at once and refused.
    await vi.waitFor(
      async () => {
        const pending = (await deliveriesOf(endpoint.id)).filter((d) => d.status === 'pending');
        expect(pending).toHaveLength(6);
        expect(pending.every((d) => d.attempts >= 1 && d.last_attempt?.response_status === 0)).toBe(true);
      },
      { timeout: 20_000, interval: 50 },
    );
    // Hours pass with the receiver still down: a few more attempts each, all refused.
    for (let hour = 0; hour < 3; hour++) {
      clock += HOUR;
      await server.app.webhooks.runOnce();
    }
    await receiver.comeBack();
    clock += 2 * HOUR;
    await vi.waitFor(
      async () => {
        await server.app.webhooks.runOnce();
        expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'delivered')).toBe(true);
      },
      { timeout: 20_000, interval: 50 },
    );
    const late = receiver.received.slice(before);
    const created = late.map((r) => verified(endpoint.secret, r)).filter((e) => e.type === 'user.created');
    expect(created.map((e) => e.data.user_id).sort()).toEqual(users.map((u) => u.userId).sort());
    // Nothing comes twice, however long the workers keep running.
    clock += 2 * HOUR;
    await server.app.webhooks.runOnce();
    const summary = receiver.received.slice(before).map((r) => `${r.headers['webhook-id']} ${r.body.slice(0, 60)}`);
    expect(summary, summary.join('\n')).toHaveLength(6);
    expect(new Set(idsOf(receiver)).size).toBe(receiver.received.length);
  });

  test('a delivered event is resent on request with the same webhook-id', async () => {
    const [latest] = await deliveriesOf(endpoint.id);
    if (latest === undefined) throw new Error('no delivery');
    const resent = await call('POST', `/admin/webhooks/deliveries/${latest.id}/resend`, {}, { token: operator });
    expect(resent.status).toBe(204);
    await vi.waitFor(() => expect(idsOf(receiver).filter((id) => id === latest.event_id)).toHaveLength(2), {
      timeout: 20_000,
      interval: 50,
    });
    await vi.waitFor(
      async () => {
        const attempts = await call<{ ok: boolean }[]>(
          'GET',
          `/admin/webhooks/deliveries/${latest.id}/attempts`,
          undefined,
          { token: operator },
        );
        expect(attempts.body.filter((a) => a.ok).length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 50 },
    );
  });
});

describe('persistent failure', () => {
  test('an endpoint failing for a day is turned off, with a notice in the audit log', async () => {
    const receiver = await startWebhookReceiver();
    await receiver.goDown();
    const endpoint = await addEndpoint(receiver.url, ['user.created']);
    await signUp(server);
    for (let hour = 0; hour < 26; hour++) {
      clock += HOUR;
      await server.app.webhooks.runOnce();
    }
    const list = await call<{ id: number; enabled: boolean; disabled_reason: string }[]>(
      'GET',
      '/admin/webhooks',
      undefined,
      { token: operator },
    );
    const now = list.body.find((e) => e.id === endpoint.id);
    expect(now?.enabled).toBe(false);
    expect(now?.disabled_reason).toMatch(/every delivery failed/);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery?.status).toBe('failed');
    const audit = await call<{ action: string; target: string }[]>(
      'GET',
      '/admin/audit?action=webhook.disable',
      undefined,
      {
        token: operator,
      },
    );
    expect(audit.body.some((entry) => entry.target === `webhook:${endpoint.id}`)).toBe(true);
    await removeEndpoint(endpoint.id);
    await receiver.close();
  });
});

describe('the outbox', () => {
  test('an event is not written when its change rolls back', async () => {
    const receiver = await startWebhookReceiver();
    const endpoint = await addEndpoint(receiver.url, ['user.updated']);
    const [first, second] = [await signUp(server), await signUp(server)];
    const ctx = server.app.ctx;
    await saveUser(ctx, first.userId, { nickname: `taken${first.userId}` });
    const event = { type: 'user.updated', userId: second.userId, product: PID, data: {} } as const;
    // The nickname is taken: the update fails on the unique index and the event goes with it.
    expect(await saveUser(ctx, second.userId, { nickname: `taken${first.userId}` }, event)).toBe(false);
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    expect(await saveUser(ctx, second.userId, { nickname: `free${second.userId}` }, event)).toBe(true);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    await removeEndpoint(endpoint.id);
    await receiver.close();
  });

  test('two app instances on one database deliver each event once', async () => {
    const receiver = await startWebhookReceiver();
    const endpoint = await addEndpoint(receiver.url, ['session.started']);
    const second: App = await buildApp(server.config, { logger: false, now: () => clock });
    try {
      const users = await Promise.all(Array.from({ length: 8 }, () => signUp(server)));
      await vi.waitFor(
        async () => {
          await Promise.all([server.app.webhooks.runOnce(), second.webhooks.runOnce()]);
          expect(receiver.received.length).toBeGreaterThanOrEqual(users.length);
          // Every answer recorded, so no lease is still held when the clock moves past it below.
          const log = await deliveriesOf(endpoint.id);
          expect(log.filter((d) => d.status === 'delivered')).toHaveLength(users.length);
        },
        { timeout: 20_000, interval: 50 },
      );
      clock += HOUR;
      await Promise.all([server.app.webhooks.runOnce(), second.webhooks.runOnce()]);
      expect(receiver.received).toHaveLength(users.length);
      expect(new Set(idsOf(receiver)).size).toBe(users.length);
    } finally {
      await second.close();
      await removeEndpoint(endpoint.id);
      await receiver.close();
    }
  });
});

describe('endpoints', () => {
  test('bad URLs and events are refused with E_1', async () => {
    for (const body of [
      { product: PID, url: 'ftp://example.com/hook', events: ['user.created'] },
      { product: PID, url: 'not a url', events: ['user.created'] },
      { product: PID, url: 'https://example.com/hook', events: ['user.exploded'] },
      { product: PID, url: 'https://example.com/hook', events: [] },
    ]) {
      const answer = await call<{ code: number }>('POST', '/admin/webhooks', body, { token: operator });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const list = await call<unknown[]>('GET', '/admin/webhooks', undefined, { token: operator });
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });
});

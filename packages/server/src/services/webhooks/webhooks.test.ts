/**
 * Webhooks against the real server over HTTP, on SQLite and PostgreSQL: deliveries checked by the
 * `standardwebhooks` package (an implementation we did not write), a receiver that was down gets
 * every event afterwards once each, two app instances on one database deliver each event once, and
 * a change that rolls back leaves no event. The clock is injected: back-off is crossed by moving it.
 */
import type { NewWebhookEndpoint, WebhookDelivery } from '@edupass/protocol';
import { A, type Account, auditorToken, PASSWORD, PID, signInOperator, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { webhooksCommand } from '../../cli/webhooks.ts';
import { saveUser } from '../account/users.ts';
import { onNewEvents } from './events.ts';

const HOUR = 3_600_000;
let clock = Date.now();
const { server, call } = useTestServer(
  // The clock moves by days here: the operator's token outlives them.
  {
    webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
    accessTokenTtlSeconds: 365 * 86_400,
  },
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
  test('an endpoint failing for a day is turned off, with a notice in the audit log; its events are kept and sent once it is on again', async () => {
    // The auditor's account is made before the endpoint: its sign-up is no event of the endpoint's.
    const auditor = await auditorToken(server);
    const receiver = await startWebhookReceiver();
    await receiver.goDown();
    const endpoint = await addEndpoint(receiver.url, ['user.created']);
    const first = await signUp(server);
    // The first attempt fails now, before the clock moves: the endpoint is failing from here (on a
    // loaded machine the pass the sign-up woke may otherwise run only after the first move).
    await server.app.webhooks.runOnce();
    // Most of a day (no delivery has given up yet): still on, however many attempts failed.
    for (let hour = 0; hour < 22; hour++) {
      clock += HOUR;
      await server.app.webhooks.runOnce();
    }
    const stateOf = async () =>
      (
        await call<{ id: number; enabled: boolean; disabled_reason: string }[]>('GET', '/admin/webhooks', undefined, {
          token: operator,
        })
      ).body.find((e) => e.id === endpoint.id);
    expect((await stateOf())?.enabled).toBe(true);
    for (let hour = 0; hour < 4; hour++) {
      clock += HOUR;
      await server.app.webhooks.runOnce();
    }
    const now = await stateOf();
    expect(now?.enabled).toBe(false);
    expect(now?.disabled_reason).toMatch(/every delivery failed since/);
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery?.status).toBe('failed');
    const audit = await call<{ action: string; target: string }[]>(
      'GET',
      '/admin/audit?action=webhook.disable',
      undefined,
      {
        token: auditor,
      },
    );
    expect(audit.body.some((entry) => entry.target === `webhook:${endpoint.id}`)).toBe(true);

    // While it is off, events are still written for it, and wait.
    const second = await signUp(server);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(['pending', 'failed']);
    await receiver.comeBack();
    clock += 2 * HOUR;
    await server.app.webhooks.runOnce();
    expect(receiver.received).toHaveLength(0);

    // The operator turns it on: it is sent what it missed, the given-up one included, once each.
    const lines = await webhooksCommand(server.app.ctx, ['enable', String(endpoint.id)], undefined);
    expect(lines?.join('\n')).toMatch(/2 deliveries it missed/);
    await vi.waitFor(
      async () => {
        await server.app.webhooks.runOnce();
        expect((await deliveriesOf(endpoint.id)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
      },
      { timeout: 20_000, interval: 50 },
    );
    const created = receiver.received.map((r) => verified(endpoint.secret, r).data.user_id);
    expect(created.sort()).toEqual([first.userId, second.userId].sort());
    const listed = await webhooksCommand(server.app.ctx, ['deliveries', String(endpoint.id)], undefined);
    expect(listed).toHaveLength(2);
    expect(listed?.[0]).toMatch(/\tuser\.created\tmsg_[^\t]+\tdelivered\t1 attempts\t204$/);
    await removeEndpoint(endpoint.id);
    await receiver.close();
  });

  test('a receiver down for a burst of 60 changes gets every event once it is back, exactly once, in an order it can restore', async () => {
    const receiver = await startWebhookReceiver();
    const endpoint = await addEndpoint(receiver.url, ['user.updated']);
    await receiver.goDown();
    const users = [await signUp(server), await signUp(server), await signUp(server)];
    const changes = Array.from({ length: 60 }, (_, i) => ({ user: users[i % 3] as Account, n: i }));
    const answers = await Promise.all(
      changes.map(({ user, n }) =>
        call('PATCH', `${A}/info`, { nickname: `burst${user.userId}n${n}` }, { token: user.token }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(changes.map(() => 204));
    // Every delivery is tried at once and refused: 60 failures in a row within moments.
    await vi.waitFor(
      async () => {
        await server.app.webhooks.runOnce();
        const log = await deliveriesOf(endpoint.id);
        expect(log).toHaveLength(60);
        expect(log.every((d) => d.status === 'pending' && d.attempts >= 1)).toBe(true);
      },
      { timeout: 20_000, interval: 50 },
    );
    // A short outage does not turn the endpoint off (only a day of failing does).
    const listed = await webhooksCommand(server.app.ctx, ['list'], undefined);
    expect(listed?.find((line) => line.startsWith(`${endpoint.id}\t`))).toMatch(/\ton\t/);

    await receiver.comeBack();
    clock += HOUR;
    await vi.waitFor(
      async () => {
        await server.app.webhooks.runOnce();
        expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'delivered')).toBe(true);
      },
      { timeout: 20_000, interval: 50 },
    );
    const events = receiver.received.map((r) => ({
      id: String(r.headers['webhook-id']),
      ...(verified(endpoint.secret, r) as {
        type: string;
        data: { user_id: number; sequence: number; changes: { nickname: string } };
      }),
    }));
    expect(events).toHaveLength(60);
    expect(new Set(events.map((e) => e.id)).size).toBe(60);
    expect(events.map((e) => e.data.changes.nickname).sort()).toEqual(
      changes.map(({ user, n }) => `burst${user.userId}n${n}`).sort(),
    );
    // Each user's events carry distinct, increasing sequence numbers: the order is restorable.
    for (const user of users) {
      const sequences = events.filter((e) => e.data.user_id === user.userId).map((e) => e.data.sequence);
      expect(sequences).toHaveLength(20);
      expect(new Set(sequences).size).toBe(20);
      expect(sequences.every((n) => Number.isInteger(n) && n > 0)).toBe(true);
    }
    // Nothing comes twice, however long the workers keep running.
    clock += 2 * HOUR;
    await server.app.webhooks.runOnce();
    expect(receiver.received).toHaveLength(60);
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

  test('the workers are woken by a commit that queued a delivery, not by every commit', async () => {
    const wakes = vi.fn();
    const stop = onNewEvents(server.app.ctx.store, wakes);
    try {
      // No endpoint takes user.updated: the change commits and queues nothing.
      const account = await signUp(server);
      wakes.mockClear();
      const event = { type: 'user.updated', userId: account.userId, product: PID, data: {} } as const;
      expect(await saveUser(server.app.ctx, account.userId, { nickname: `quiet${account.userId}` }, event)).toBe(true);
      expect(wakes).not.toHaveBeenCalled();
      const receiver = await startWebhookReceiver();
      const endpoint = await addEndpoint(receiver.url, ['user.updated']);
      try {
        expect(await saveUser(server.app.ctx, account.userId, { nickname: `heard${account.userId}` }, event)).toBe(
          true,
        );
        expect(wakes).toHaveBeenCalledTimes(1);
        expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
      } finally {
        await removeEndpoint(endpoint.id);
        await receiver.close();
      }
    } finally {
      stop();
    }
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

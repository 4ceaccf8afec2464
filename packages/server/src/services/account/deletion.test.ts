/**
 * Deleting an account, by its user after a recent proof or by an operator: the user and every row
 * naming them go, sessions end at once, the `user.deleted` webhook is delivered (checked with the
 * `standardwebhooks` package), the phone can sign up again, and two deletions at once delete once.
 */
import type { NewWebhookEndpoint } from '@edupass/protocol';
import {
  A,
  type Account,
  auditorToken,
  expectError,
  PASSWORD,
  PID,
  signIn,
  signInOperator,
  signUp,
  TOKEN_SET_HEADERS,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { findUserByPhone } from '../../store/account/users.ts';

let clock = Date.now();
const { server, call } = useTestServer(
  {
    webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 5_000, disableAfterMs: 86_400_000 },
    accessTokenTtlSeconds: 86_400,
  },
  { now: () => clock },
);
let operator: { token: string; userId: number };
let receiver: WebhookReceiver;
let endpoint: NewWebhookEndpoint;

beforeAll(async () => {
  const signedIn = await signInOperator(server);
  const row = await findUserByPhone(server.app.ctx.db, signedIn.phone);
  operator = { token: signedIn.token, userId: row?.id ?? 0 };
  receiver = await startWebhookReceiver();
  const added = await call<NewWebhookEndpoint>(
    'POST',
    '/admin/webhooks',
    { product: PID, url: receiver.url, events: ['user.deleted'] },
    { token: operator.token },
  );
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  endpoint = added.body;
});
afterAll(() => receiver?.close());

const stepUp = (user: Account) => call('POST', `${A}/step-up/password`, { password: PASSWORD }, { token: user.token });

type Deleted = { type: string; data: { user_id: number; deleted_by: string } };

/** The user.deleted events the receiver got for `userId`, each verified as Standard Webhooks. */
const deletionsOf = async (userId: number) => {
  const verifier = new Webhook(endpoint.secret);
  // The reference implementation checks the timestamp against the system clock: set it to the server's.
  const verify = (received: (typeof receiver.received)[number]): Deleted => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock);
    try {
      return verifier.verify(received.body, received.headers as Record<string, string>) as Deleted;
    } finally {
      vi.useRealTimers();
    }
  };
  const found = () =>
    receiver.received.map(verify).filter((e) => e.type === 'user.deleted' && e.data.user_id === userId);
  const deadline = Date.now() + 20_000;
  while (found().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return found();
};

/** Rows naming the user left anywhere. */
const rowsLeft = async (userId: number) => {
  const db = server.app.ctx.db;
  const count = async (
    table:
      | 'users'
      | 'sessions'
      | 'user_oauths'
      | 'agreement_signatures'
      | 'totp_secrets'
      | 'passkeys'
      | 'recovery_codes',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(table === 'users' ? 'id' : 'user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tables = [
    'users',
    'sessions',
    'user_oauths',
    'agreement_signatures',
    'totp_secrets',
    'passkeys',
    'recovery_codes',
  ] as const;
  const counts = await Promise.all(tables.map(count));
  return Object.fromEntries(tables.map((t, i) => [t, counts[i]]).filter(([, n]) => n !== 0));
};

describe('a user deletes their account', () => {
  test('only after a recent proof; then every row and session is gone, sites are told, and the phone is free', async () => {
    const user = await signUp(server);
    const other = { token: (await signIn(server, user.phone)).access.token }; // a second device
    // A sign-in is a proof for a few minutes; later the deletion asks for a fresh one.
    clock += (server.config.stepUpSeconds + 60) * 1000;
    expectError(await call('DELETE', `${A}/account`, undefined, { token: user.token }), 'E_7');
    expect((await stepUp(user)).status).toBe(204);
    const deleted = await call('DELETE', `${A}/account`, undefined, { token: user.token });
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('set-cookie')).toMatch(/authorization=;/);

    for (const token of [user.token, other.token]) {
      expectError(await call('GET', `${A}/profile`, undefined, { token }), 'E_0');
    }
    expect(await rowsLeft(user.userId)).toEqual({});
    const login = await call(
      'POST',
      `${A}/login`,
      { identity: user.phone, password: PASSWORD, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
    expect(login.status).not.toBe(200);

    const events = await deletionsOf(user.userId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.deleted_by).toBe('user');

    // The phone belongs to nobody now: it signs up as a new account.
    const again = await signUp(server, user.phone);
    expect(again.userId).not.toBe(user.userId);
  });
});

describe('an operator deletes an account', () => {
  test('the user is gone, the audit log says who did it, and sites are told', async () => {
    const user = await signUp(server);
    expect((await call('DELETE', `/admin/users/${user.userId}`, undefined, { token: operator.token })).status).toBe(
      204,
    );
    expect(await rowsLeft(user.userId)).toEqual({});
    expectError(await call('GET', `/admin/users/${user.userId}`, undefined, { token: operator.token }), 'AC3_3');
    const audit = await call<{ action: string; target: string }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(audit.body).toContainEqual(
      expect.objectContaining({ action: 'user.delete', target: `user:${user.userId}` }),
    );
    expect((await deletionsOf(user.userId))[0]?.data.deleted_by).toBe('operator');
  });

  test('never their own account, and an unknown user is AC3_3', async () => {
    expectError(await call('DELETE', `/admin/users/${operator.userId}`, undefined, { token: operator.token }), 'E_1');
    expectError(await call('DELETE', '/admin/users/999999999', undefined, { token: operator.token }), 'AC3_3');
  });

  test('two deletions at once: one deletes, the other hears AC3_3, one event', async () => {
    const user = await signUp(server);
    const answers = await Promise.all(
      [0, 1, 2].map(() => call('DELETE', `/admin/users/${user.userId}`, undefined, { token: operator.token })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([204, 404, 404]);
    for (const answer of answers.filter((a) => a.status !== 204)) expectError(answer, 'AC3_3');
    expect(await deletionsOf(user.userId)).toHaveLength(1);
    // One event in the outbox, not merely one delivered so far.
    const written = await server.app.ctx.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'user.deleted')
      .execute();
    const ofUser = written.filter((row) => (JSON.parse(row.payload) as Deleted).data.user_id === user.userId);
    expect(ofUser).toHaveLength(1);
  });
});

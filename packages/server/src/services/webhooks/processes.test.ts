/**
 * Two server processes (the bundle `npm start` runs) on one database, each with its delivery worker:
 * every event, whichever process recorded it, reaches the receiver once — verified by the
 * `standardwebhooks` package.
 */

import { PID, signUp } from '@edupass/test-kit/accounts';
import { bundleServer, type ChildServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { TEST_ENV, type TestServer } from '@edupass/test-kit/harness';
import { startWebhookReceiver, type WebhookReceiver } from '@edupass/test-kit/webhook-receiver';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config/config.ts';
import { createContext } from '../../context.ts';
import { addWebhook } from './webhooks.ts';

const USERS = 10;
const silent = { info() {}, warn() {}, error() {} };

describe('two server processes on one database', () => {
  let database: TestDatabase;
  let bundle: Awaited<ReturnType<typeof bundleServer>>;
  let receiver: WebhookReceiver;
  let secret: string;
  const processes: ChildServer[] = [];

  beforeAll(async () => {
    [database, bundle, receiver] = await Promise.all([createTestDatabase(), bundleServer(), startWebhookReceiver()]);
    const env = { ...TEST_ENV, DATABASE_URL: database.url, WEBHOOK_POLL_MS: '50', DATABASE_POOL_SIZE: '5' };
    // Migrates the fresh database and makes its development secret, which both processes then read.
    const ctx = await createContext(loadConfig(env), silent);
    try {
      secret = (
        await addWebhook(ctx, 0, { product: PID, url: receiver.url, events: ['user.created', 'session.started'] })
      ).secret;
    } finally {
      await ctx.close();
    }
    for (let i = 0; i < 2; i++) processes.push(await startChildServer(bundle.file, env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await receiver?.close();
    bundle?.remove();
    await database?.drop();
  });

  it('deliver each event once', async () => {
    const servers = processes.map(
      (p) =>
        ({
          url: p.url,
          lastCode: async (to: string) => {
            const rows = (await (await fetch(`${p.url}/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as {
              code: string;
            }[];
            return rows.find((row) => row.code !== '')?.code;
          },
        }) as unknown as TestServer,
    );
    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => signUp(servers[i % 2] as TestServer)));
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2 * USERS), {
      timeout: 30_000,
      interval: 50,
    });
    const events = receiver.received.map(
      (r) =>
        new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          data: { user_id: number };
        },
    );
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      events
        .filter((e) => e.type === 'user.created')
        .map((e) => e.data.user_id)
        .sort(),
    ).toEqual(users.map((u) => u.userId).sort());
    // Both workers went on polling meanwhile: one more sign-up's events arrive, and nothing else did.
    await signUp(servers[1] as TestServer);
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2 * USERS + 2), {
      timeout: 30_000,
      interval: 50,
    });
    expect(receiver.received).toHaveLength(2 * USERS + 2);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(2 * USERS + 2);
  }, 120_000);
});

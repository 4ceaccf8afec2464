/**
 * DATABASE_READ_URL: the console's dashboard queries go to the read-only copy, everything else to
 * DATABASE_URL. The "replica" here is a second database that never receives the events, so an
 * answer read from the primary would count them.
 */

import { signInOperator } from '@edupass/test-kit/accounts';
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { reportOneEvent } from '@edupass/test-kit/usage-reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/db.ts';
import { migrate } from '../../store/migrate.ts';

let replica: TestDatabase;
let withReplica: TestServer;
let withoutReplica: TestServer;

beforeAll(async () => {
  replica = await createTestDatabase();
  const store = openStore(replica.url);
  await migrate(store);
  await store.close();
  withReplica = await startTestServer({ databaseReadUrl: replica.url });
  withoutReplica = await startTestServer();
});
afterAll(async () => {
  await withReplica?.close();
  await withoutReplica?.close();
  await replica?.drop();
});

const report = (server: TestServer, uid: string) => reportOneEvent(server.url, uid);

const uniques = async (server: TestServer) => {
  const { token } = await signInOperator(server);
  const response = await fetch(`${server.url}/admin/usage/uniques?product=edupass`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { events: number; devices: number };
};

describe('DATABASE_READ_URL', () => {
  it('the dashboards read the replica; ingestion and sign-in use the primary', async () => {
    for (const server of [withReplica, withoutReplica]) {
      expect((await report(server, 'device-1')).status).toBe(204);
      expect((await report(server, 'device-2')).status).toBe(204);
    }
    expect(await uniques(withoutReplica)).toMatchObject({ events: 2, devices: 2 });
    expect(await uniques(withReplica)).toMatchObject({ events: 0, devices: 0 });
  });
});

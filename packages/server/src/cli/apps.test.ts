import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runCli } from '../cli.ts';
import { openStore, type Store } from '../store/db.ts';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';

let database: TestDatabase;
let store: Store;
const output: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.LOG_LEVEL = 'warn';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void output.push(args.join(' ')));
  expect(await runCli(['migrate'])).toBe(0);
  store = openStore(database.url);
});

afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_URL;
  await store?.close();
  await database?.drop();
});

const printed = () => output.at(-1) ?? '';
const secretHash = async (clientId: string) =>
  (await store.db.selectFrom('applications').select('secret_hash').where('client_id', '=', clientId).executeTakeFirst())
    ?.secret_hash;

describe('edupass apps', () => {
  test('adds a confidential application with its secret shown once, rotates it, lists and removes it', async () => {
    const redirect = [
      '--redirect',
      'https://courses.example.com/callback',
      '--post-logout',
      'https://courses.example.com/',
    ];
    expect(await runCli(['apps', 'add', 'Courses', ...redirect])).toBe(0);
    const [clientId = ''] = printed().split(/\s+/);
    const secret = /client secret \(shown once\): (\S+)/.exec(printed())?.[1] ?? '';
    expect(secret.length).toBeGreaterThan(30);
    const stored = await secretHash(clientId);
    expect(stored).toBeTypeOf('string');
    expect(stored).not.toContain(secret);

    expect(await runCli(['apps', 'rotate-secret', clientId])).toBe(0);
    const rotated = /\(shown once\): (\S+)/.exec(printed())?.[1];
    expect(rotated).not.toBe(secret);
    expect(await secretHash(clientId)).not.toBe(stored);

    expect(await runCli(['apps', 'list'])).toBe(0);
    expect(printed()).toContain(`${clientId}  Courses`);
    expect(printed()).toContain('first-party, confidential');
    expect(printed()).not.toContain(String(rotated));

    expect(await runCli(['apps', 'remove', clientId])).toBe(0);
    expect(await secretHash(clientId)).toBeUndefined();
  });

  test('a public third-party application gets no secret, and cannot rotate one', async () => {
    expect(
      await runCli(['apps', 'add', 'Quiz', '--redirect', 'https://quiz.example.com/cb', '--public', '--third-party']),
    ).toBe(0);
    expect(printed()).toContain('third-party, public (PKCE)');
    expect(printed()).not.toContain('secret (shown once)');
    const [clientId = ''] = printed().split(/\s+/);
    await expect(runCli(['apps', 'rotate-secret', clientId])).rejects.toThrow(/No confidential application/);
  });

  test('refuses a redirect URI that is not an absolute http(s) URL, saying so', async () => {
    await expect(runCli(['apps', 'add', 'Bad', '--redirect', 'javascript:alert(1)'])).rejects.toThrow(
      /redirect URI must be an http\(s\) URL/,
    );
    await expect(runCli(['apps', 'add', 'None'])).rejects.toThrow(/At least one redirect URI/);
    await expect(runCli(['apps', 'remove', 'nope'])).rejects.toThrow(/No application has this client id/);
  });
});

import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { runCli } from '../cli.ts';
import { createTestDatabase, type TestDatabase } from '../testing/databases.ts';

let database: TestDatabase;
const output: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.LOG_LEVEL = 'warn';
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void output.push(args.join(' ')));
});

afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_URL;
  await database?.drop();
});

test('edupass webhooks add, list, resend and remove', async () => {
  const url = 'https://hooks.example.com/edupass';
  expect(await runCli(['webhooks', 'add', 'edupass', url, '--events', 'user.created,user.blocked'])).toBe(0);
  const secretLine = output.find((line) => line.startsWith('Signing secret'));
  expect(secretLine).toMatch(/whsec_[A-Za-z0-9+/=]{40,}/);
  const id = /Added webhook (\d+)/.exec(output.join('\n'))?.[1];
  expect(id).toBeDefined();

  output.length = 0;
  expect(await runCli(['webhooks', 'list'])).toBe(0);
  expect(output).toEqual([`${id}\tedupass\ton\t${url}\tuser.created,user.blocked`]);

  await expect(runCli(['webhooks', 'resend', '999999'])).rejects.toThrow(/No webhook delivery 999999/);
  await expect(runCli(['webhooks', 'add', 'edupass', 'http://127.0.0.1:9/x'])).rejects.toThrow(/loopback or private/);

  expect(await runCli(['webhooks', 'remove', String(id)])).toBe(0);
  output.length = 0;
  expect(await runCli(['webhooks', 'list'])).toBe(0);
  expect(output).toEqual(['No webhook endpoints.']);
});

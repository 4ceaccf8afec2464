/**
 * `edupass backup <file>` copies the SQLite database while it is in use, and the copy restores: the
 * server stopped, the file copied back, started again, it holds what was there at the backup and
 * nothing written after. On PostgreSQL the command points at pg_dump. Also `.env` loading.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextPhone, signIn, signUp } from '@edupass/test-kit/accounts';
import { testDatabaseKind } from '@edupass/test-kit/databases';
import { startTestServer } from '@edupass/test-kit/harness';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli.ts';
import { loadConfig } from './config/config.ts';
import { loadEnvFile } from './env-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'edupass-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_URL;
});

describe.runIf(testDatabaseKind() === 'sqlite')('edupass backup on SQLite', () => {
  it('copies the database while the server writes to it, and the copy restores', async () => {
    const database = join(dir, 'live.db');
    const server = await startTestServer({ databaseUrl: database });
    const before = await signUp(server, nextPhone());
    process.env.DATABASE_URL = database;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const backup = join(dir, 'backup.db');
    expect(await runCli(['backup', backup])).toBe(0);
    expect(String(log.mock.calls.at(-1)?.[0])).toMatch(
      /^Backed up \d+ pages to .*backup\.db\. To restore: stop the server/,
    );
    const after = await signUp(server, nextPhone());
    await server.close();

    // Restore: the server stopped, the copy put in place of the file, the server started on it.
    const restored = join(dir, 'restored.db');
    copyFileSync(backup, restored);
    const again = await startTestServer({ databaseUrl: restored });
    try {
      expect((await signIn(again, before.phone)).access.token).toEqual(expect.any(String));
      await expect(signIn(again, after.phone)).rejects.toThrow();
      expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('edupass backup on PostgreSQL', () => {
  it('refuses and names pg_dump', async () => {
    process.env.DATABASE_URL = process.env.EDUPASS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await runCli(['backup', join(dir, 'x.db')])).toBe(2);
    expect(String(error.mock.calls.at(-1)?.[0])).toMatch(/pg_dump --format=custom/);
  });
});

describe('.env', () => {
  it('is read into the configuration; a variable set in the environment wins over the file', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'DATABASE_POOL_SIZE=25\nEDUPASS_TEST_FROM_FILE=file\nEDUPASS_TEST_SET=file\n');
    process.env.EDUPASS_TEST_SET = 'environment';
    try {
      expect(loadEnvFile(file)).toBe(file);
      expect(process.env.EDUPASS_TEST_FROM_FILE).toBe('file');
      expect(process.env.EDUPASS_TEST_SET).toBe('environment');
      expect(loadConfig(process.env).databasePoolSize).toBe(25);
      expect(loadEnvFile(join(dir, 'absent.env'))).toBeUndefined();
    } finally {
      for (const name of ['DATABASE_POOL_SIZE', 'EDUPASS_TEST_FROM_FILE', 'EDUPASS_TEST_SET']) delete process.env[name];
    }
  });
});

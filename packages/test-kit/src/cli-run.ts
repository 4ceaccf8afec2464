/**
 * The `edupass` command run in-process against a test server's database: its exit status and the lines
 * it printed (DATABASE_URL set for the run and put back after).
 */
import { vi } from 'vitest';
import { runCli } from '../../server/src/cli.ts';
import type { TestServer } from './harness.ts';

export const runCliOn = async (server: TestServer, argv: string[]): Promise<{ code: number; lines: string[] }> => {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = server.config.databaseUrl;
  try {
    const code = await runCli(argv);
    if (typeof code !== 'number') throw new Error(`${argv.join(' ')} started a server`);
    return { code, lines };
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    log.mockRestore();
  }
};

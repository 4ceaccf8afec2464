/**
 * The server on each database, as deployed: the bundle of bench/server/server-entry.ts (the real
 * `buildApp` and `loadConfig`), NODE_ENV=production, request log at `info` to a file; its one change
 * is ACCOUNT_DELETION_GRACE_DAYS=0, so a deletion erases the account within the request (what the
 * bench times) instead of in the next hourly sweep. An operator's session is minted through the
 * token service beforehand (second factor passed, as OPERATOR_MFA=required asks).
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../../packages/server/src/config/config.ts';
import { createContext } from '../../packages/server/src/context.ts';
import { issueSessionToken, startSession } from '../../packages/server/src/services/sessions/tokens.ts';
import { startChild, stopChild } from '../server/processes.mjs';
import { log } from './log.ts';

/** The same secret for the bench's own context and the server, so the server verifies the minted token. */
const JWT_SECRET = 'scale-bench-signing-secret-0123456789abcdef';

export const serverEnvironment = (databaseUrl: string) => ({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  PUBLIC_URL: 'http://127.0.0.1',
  DATABASE_URL: databaseUrl,
  JWT_SECRET,
  LOG_LEVEL: 'info',
  ACCOUNT_DELETION_GRACE_DAYS: '0',
});

export const configFor = (databaseUrl: string): Config =>
  loadConfig({ ...process.env, ...serverEnvironment(databaseUrl) });

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];

/** A bearer token of operator `operatorId`, whose session passed the second factor. */
export const operatorToken = async (config: Config, operatorId: number): Promise<string> => {
  const ctx = await createContext(config, silent);
  try {
    const { ref } = await startSession(
      ctx,
      { id: operatorId, pid: 'edupass' },
      'password',
      { ip: '127.0.0.1', userAgent: 'scale-bench' },
      { secondFactor: true },
    );
    return await issueSessionToken(ctx, ref);
  } finally {
    await ctx.close();
  }
};

/**
 * Waits until the server's start-up sweep is over: no statement of its on the database for two
 * seconds running (at most two minutes). Answers how long that took.
 */
const quietDatabase = async (databaseUrl: string): Promise<number> => {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let quietSince = performance.now();
    while (performance.now() - started < 120_000) {
      const { rows } = await client.query(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      if (rows[0].n > 0) quietSince = performance.now();
      else if (performance.now() - quietSince >= 2000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
};

export interface RunningServer {
  url: string;
  child: ChildProcess;
  sweepSeconds: number;
}

export const startServer = async (label: string, databaseUrl: string, logDir: string): Promise<RunningServer> => {
  const bundle = process.env.SCALE_SERVER_BUNDLE;
  if (bundle === undefined) throw new Error('SCALE_SERVER_BUNDLE is not set: run the bench with bench/scale/run.mjs');
  const { child, url } = await startChild(
    '0-1',
    ['node', bundle],
    serverEnvironment(databaseUrl),
    join(logDir, `server-${label}.log`),
  );
  const sweepSeconds = await quietDatabase(databaseUrl);
  log(`${label}: server at ${url}; its start-up sweep done after ${sweepSeconds.toFixed(1)} s`);
  return { url, child, sweepSeconds };
};

export const stopServer = (server: RunningServer) => stopChild(server.child);

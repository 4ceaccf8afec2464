/**
 * A PostgreSQL cluster of the test's own (initdb in a temp dir, its own port), which the test may
 * stop and start again to play an outage. Never the shared server other tests use. As root, the
 * cluster runs as the postgres user (initdb refuses root).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child-server.ts';

export interface ScratchPostgres {
  url: string;
  stop(): void;
  start(): void;
  remove(): void;
}

export const postgresBin = (): string | undefined => {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : undefined;
  return bin && existsSync(`${bin}/initdb`) ? bin : undefined;
};

/**
 * `settings` are passed to the server as `-c name=value` after the defaults, so they may replace them:
 * `{ fsync: 'on', shared_preload_libraries: 'pg_stat_statements' }` for a cluster that counts its
 * statements and WAL syncs (the statement-count test, bench/district).
 */
export const startScratchPostgres = async (settings: Record<string, string> = {}): Promise<ScratchPostgres> => {
  const bin = postgresBin();
  if (bin === undefined) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const scratch = mkdtempSync(join(tmpdir(), 'edupass-cluster-pg-'));
  chmodSync(scratch, 0o755); // mktemp's 0700 would keep the postgres user out
  const data = join(scratch, 'data');
  const port = await freePort();
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const run = (args: string[]) => {
    const [cmd = '', ...rest] = [...asPostgres, ...args];
    const result = spawnSync(cmd, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  mkdirSync(data);
  if (asPostgres.length) spawnSync('chown', ['postgres:postgres', data]);
  run([`${bin}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  const start = () =>
    run([
      `${bin}/pg_ctl`,
      '-D',
      data,
      '-l',
      join(data, 'log'),
      '-w',
      '-o',
      [
        `-p ${port} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
        ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
      ].join(' '),
      'start',
    ]);
  const stop = () => run([`${bin}/pg_ctl`, '-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove() {
      try {
        stop();
      } catch {}
      rmSync(scratch, { recursive: true, force: true });
    },
  };
};

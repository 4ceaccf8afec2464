#!/usr/bin/env node
// Runs every test: the SDK and browser tests, the server suite on SQLite and on PostgreSQL, and the
// usage suites once more with the events in a scratch ClickHouse (when clickhouse-server is installed).
// PostgreSQL: the one at EDUPASS_TEST_PG_URL (default 127.0.0.1:5432) when it answers, else a
// scratch cluster started here from the installed binaries. Ends with one line
// "N passed, N failed" totalling every runner.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { clickhouseInstalled, startScratchClickHouse } from './scratch-clickhouse.mjs';
import { SCREENSHOTS_TAKEN, writeGallery } from './screenshot-gallery.mjs';

const root = new URL('..', import.meta.url).pathname;
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const RUN_DURATIONS = join(root, '.tmp', 'test-durations-run.json');
const cleanups = [];

const pgAnswers = async (url) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
};

const startScratchPostgres = () => {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : undefined;
  if (!bin || !existsSync(`${bin}/initdb`)) return undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'edupass-pg-'));
  chmodSync(scratch, 0o755); // mktemp's 0700 would keep the postgres user out
  const data = join(scratch, 'data');
  const port = 54329;
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const run = (args) => {
    const [cmd, ...rest] = [...asPostgres, ...args];
    const result = spawnSync(cmd, rest, { stdio: 'pipe', encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  mkdirSync(data);
  if (asPostgres.length) spawnSync('chown', ['postgres:postgres', data]);
  run([`${bin}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
  run([
    `${bin}/pg_ctl`,
    '-D',
    data,
    '-l',
    join(data, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  cleanups.push(() => run([`${bin}/pg_ctl`, '-D', data, '-m', 'fast', 'stop']));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
};

const choosePostgres = async () => {
  const wanted = process.env.EDUPASS_TEST_PG_URL ?? DEFAULT_PG;
  if (await pgAnswers(wanted)) return wanted;
  console.log(`PostgreSQL does not answer at ${wanted}; starting a scratch cluster…`);
  try {
    const url = startScratchPostgres();
    if (url && (await pgAnswers(url))) return url;
  } catch (error) {
    console.log(String(error));
  }
  return undefined;
};

const redisAnswers = (port) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    const answer = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000, () => answer(false));
    socket.on('data', (data) => answer(data.toString().startsWith('+PONG')));
    socket.on('error', () => resolve(false));
  });

const chooseRedis = async () => {
  if (process.env.EDUPASS_TEST_REDIS_URL) return process.env.EDUPASS_TEST_REDIS_URL;
  if (await redisAnswers(6379)) return 'redis://127.0.0.1:6379';
  const port = 63799;
  const scratch = mkdtempSync(join(tmpdir(), 'edupass-redis-'));
  const started = spawnSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    scratch,
    '--daemonize',
    'yes',
    '--pidfile',
    join(scratch, 'redis.pid'),
  ]);
  if (started.status !== 0) return undefined;
  for (let i = 0; i < 50 && !(await redisAnswers(port)); i++) await new Promise((r) => setTimeout(r, 100));
  cleanups.push(() => {
    try {
      process.kill(Number(readFileSync(join(scratch, 'redis.pid'), 'utf8')));
    } catch {}
  });
  return (await redisAnswers(port)) ? `redis://127.0.0.1:${port}` : undefined;
};

/** Runs Vitest on `projects` under the `node` binary; answers its exit code and its JSON report. */
const runVitest = async ({ node, projects, report }, env) => {
  const file = join(root, '.tmp', report);
  rmSync(file, { force: true });
  const args = [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    // Writes each file's duration to scripts/test-durations.json, from which the next run orders them.
    '--reporter=./scripts/test-order.ts',
    `--outputFile.json=${file}`,
    ...process.argv.slice(2),
  ];
  const code = await new Promise((resolve) => {
    const child = spawn(node, args, { cwd: root, stdio: 'inherit', env });
    child.on('exit', (status) => resolve(status ?? 1));
  });
  return { code, report: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined };
};

/**
 * The ten slowest test files of this run (wall time from import to the last hook, as
 * scripts/test-order.ts's reporter wrote them), slowest first.
 */
const printSlowest = () => {
  if (!existsSync(RUN_DURATIONS)) return;
  const slowest = Object.entries(JSON.parse(readFileSync(RUN_DURATIONS, 'utf8')))
    .sort(([, a], [, b]) => b - a)
    .slice(0, 10);
  if (slowest.length === 0) return;
  console.log('slowest test files:');
  for (const [name, ms] of slowest) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
};

const main = async () => {
  // The services start side by side: ClickHouse takes seconds to answer, as a scratch PostgreSQL does.
  const clickhouseStarting =
    !process.env.EDUPASS_TEST_CLICKHOUSE_URL && clickhouseInstalled() ? startScratchClickHouse() : undefined;
  clickhouseStarting?.catch(() => {}); // its failure is met where it is awaited, below
  const [pgUrl, redisUrl] = await Promise.all([choosePostgres(), chooseRedis()]);
  if (!redisUrl) console.log('WARNING: no Redis here (apt-get install redis-server); Redis counter tests are skipped.');
  const projects = ['sdk', 'browser', 'server-sqlite'];
  if (pgUrl) projects.push('server-postgres');
  else console.log('WARNING: no PostgreSQL here (apt-get install postgresql); the server suite runs on SQLite only.');

  let clickhouseUrl = process.env.EDUPASS_TEST_CLICKHOUSE_URL;
  if (clickhouseStarting) {
    const clickhouse = await clickhouseStarting;
    cleanups.push(() => clickhouse.kill());
    clickhouseUrl = clickhouse.url;
  }
  if (clickhouseUrl) projects.push('server-clickhouse');
  else
    console.log(
      'WARNING: no clickhouse-server here (apt-get install clickhouse-server); the usage suites skip ClickHouse.',
    );

  mkdirSync(join(root, '.tmp'), { recursive: true });
  rmSync(RUN_DURATIONS, { force: true });
  const env = {
    ...process.env,
    ...(pgUrl ? { EDUPASS_TEST_PG_URL: pgUrl } : {}),
    ...(redisUrl ? { EDUPASS_TEST_REDIS_URL: redisUrl } : {}),
    ...(clickhouseUrl ? { EDUPASS_TEST_CLICKHOUSE_URL: clickhouseUrl } : {}),
  };
  // The runners, one Vitest run each, one after another (never two at once on a 2-core machine).
  // Every project runs on this Node; to run some under another binary, give them a runner of their
  // own: { node: '/path/to/node', projects: ['sdk'], report: 'vitest-sdk.json' }.
  const runners = [{ node: process.execPath, projects, report: 'vitest.json' }];
  const results = [];
  let code = 0;
  for (const runner of runners) {
    const result = await runVitest(runner, env);
    results.push(result);
    if (result.code !== 0) code = result.code;
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const { code: runnerCode, report } of results) {
    if (report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests + (runnerCode !== 0 && report.numFailedTests === 0 ? 1 : 0);
      skipped += report.numPendingTests + report.numTodoTests;
    } else if (runnerCode !== 0) {
      failed += 1;
    }
  }
  printSlowest();
  for (const cleanup of cleanups) cleanup();
  if (SCREENSHOTS_TAKEN) {
    const gallery = writeGallery();
    console.log(`screenshot gallery: ${gallery.count} screenshots in ${gallery.out.replace(root, '')}`);
  } else console.log('screenshot gallery: none taken (EDUPASS_TEST_SCREENSHOTS=0)');
  if (skipped) console.log(`${skipped} skipped`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
};

main().catch((error) => {
  for (const cleanup of cleanups) cleanup();
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

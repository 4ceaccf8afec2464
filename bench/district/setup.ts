/**
 * What a district run needs on each database: the database (SQLite file, or PostgreSQL in a cluster
 * of the bench's own that counts its statements, pinned to the server's core), the people and the
 * product seeded through the test kit on an in-process server (password accounts hashed at the
 * shipped argon2id cost, a class of pupils with printed cards, a first-party application), then the
 * server as deployed (bench/server's bundle, `LOG_LEVEL=info` to a file) pinned to its core.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { freePort } from '@edupass/test-kit/child-server';
import { withPgClient } from '@edupass/test-kit/pg-client';
import { COUNTING_SETTINGS } from '@edupass/test-kit/pg-counters';
import { type ScratchPostgres, startScratchPostgres } from '@edupass/test-kit/scratch-postgres';
import { type ScratchRedis, startScratchRedis } from '@edupass/test-kit/scratch-redis';
import type { Credentials, FlowApp } from '@edupass/test-kit/sign-in-flows';
import { ARGON2_OPTIONS } from '../../packages/server/src/services/passwords/argon2.ts';
import { startChild, stopChild } from '../server/processes.mjs';
import { serverEnvironment } from '../server/setup.mjs';
import type { Flow } from './load.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export const SERVER_CORE = process.env.BENCH_SERVER_CORE ?? '0';
export const CLIENT_CORE = process.env.BENCH_CLIENT_CORE ?? '1';
/**
 * Where PostgreSQL and Redis run: beside the load, not on the server's core. Their CPU is counted per
 * flow all the same; on the server's core, the backends and the memory-hard hash evicted each other's
 * caches and the server's own CPU per password flow read 10-15 ms higher (38-45 against 29-32 ms),
 * which no deployment, its database on a machine of its own, pays.
 */
const DATABASE_CORE = process.env.BENCH_DATABASE_CORE ?? CLIENT_CORE;
/** People of each kind: one per concurrent flow at the most (an SMS code is read per phone). */
export const PEOPLE = 32;
/**
 * Password accounts: one per sign-in of the burst, as a school's burst is of many pupils each signing
 * in once (under the shipped captcha policy one account signing in over and over is rightly asked to
 * prove it is a person).
 */
export const passwordPeople = (burst: number) => Math.max(PEOPLE, burst);
const CALLBACK = 'http://127.0.0.1:7201/callback';

export interface Seeded {
  databaseUrl: string;
  app: FlowApp;
  password: Credentials[];
  sms: Credentials[];
  cards: Credentials[];
}

/** Pins every process of the cluster (the postmaster, then each backend it forks) to `core`. */
const pinCluster = (postmaster: number, core: string) =>
  spawnSync('taskset', ['-apc', core, String(postmaster)], { stdio: 'ignore' });

/** The process named `program` whose command line (or title) names `port`: a postmaster, a redis-server. */
const processOn = (program: string, port: string): number => {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (command.includes(program) && new RegExp(`[ :]${port}( |$)`).test(command)) return Number(entry);
    } catch {
      // The process ended while the list was read.
    }
  }
  throw new Error(`no ${program} on port ${port}`);
};

/** The processes of the cluster: the postmaster and its children (the backends, the WAL writer, …). */
export const clusterProcesses = (postmaster: number): number[] => {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]?.split(' ')[1]) === postmaster) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
};

export interface Cluster {
  scratch: ScratchPostgres;
  postmaster: number;
  /** Redis for the limits' counters, as several instances share them (docs/deploy.md). */
  redis: ScratchRedis;
  redisPid: number;
}

/**
 * A PostgreSQL cluster of the bench's own, counting (pg_stat_statements, WAL synced), and Redis for the
 * limits' counters, as a district's several instances run: both on the server's core.
 */
export const startCluster = async (): Promise<Cluster> => {
  const scratch = await startScratchPostgres({ ...COUNTING_SETTINGS, max_connections: '200' });
  // Before the test kit is loaded (seed), which reads it once: its databases go to this cluster.
  process.env.EDUPASS_TEST_PG_URL = scratch.url;
  const postmaster = processOn('/postgres', new URL(scratch.url).port);
  pinCluster(postmaster, DATABASE_CORE);
  for (const pid of clusterProcesses(postmaster)) pinCluster(pid, DATABASE_CORE);
  const redis = await startScratchRedis();
  const redisPid = processOn('redis-server', String(redis.port));
  pinCluster(redisPid, DATABASE_CORE);
  return { scratch, postmaster, redis, redisPid };
};

/**
 * The planner's statistics of `databaseUrl` brought up to date, as autovacuum's ANALYZE keeps them on a
 * deployed database. The counting cluster runs without autovacuum (its writes would be counted), so its
 * tables have no statistics: a connection then plans the provider's lookup in `oidc_models` as for a
 * nearly empty table, keeps that plan (a scan of the whole table) while the run fills the table with
 * thousands of rows, and PostgreSQL's CPU per flow climbs through the run (at 4 at once, 2.4 ms per
 * password flow after 8 s, 5.2 ms after 20 s). Run after each warm-up, before anything is measured.
 */
export const analyze = (databaseUrl: string) => withPgClient(databaseUrl, (client) => client.query('analyze'));

/**
 * Seeds `kind`'s database through the test kit, imported here once the cluster (if any) is up: the
 * kit reads the cluster's URL when it is loaded.
 */
export const seed = async (
  kind: DatabaseKind,
  cluster: Cluster | undefined,
  passwordAccounts = PEOPLE,
): Promise<Seeded> => {
  process.env.EDUPASS_TEST_DB = kind;
  if (cluster && process.env.EDUPASS_TEST_PG_URL !== cluster.scratch.url) throw new Error('start the cluster first');
  const { startTestServer } = await import('@edupass/test-kit/harness');
  const { registerApp } = await import('@edupass/test-kit/oidc-apps');
  const { signUpAgreed, PASSWORD, PID } = await import('@edupass/test-kit/accounts');
  const { eduSteps, CHINESE_NAMES } = await import('@edupass/test-kit/edu-steps');
  const { client } = await import('@edupass/test-kit/http-client');
  const { badgeOf, decodeCardQrCodes } = await import('@edupass/test-kit/qr-cards');
  // Passwords hashed at the shipped cost, as the measured sign-ins check them.
  const server = await startTestServer({ passwordHashing: ARGON2_OPTIONS, eduPupilPasswordChange: false });
  try {
    const people = [];
    for (let i = 0; i < passwordAccounts; i++) {
      people.push(await signUpAgreed(server));
      if ((i + 1) % 100 === 0) console.log(`  ${i + 1} of ${passwordAccounts} password accounts`);
    }
    const registered = await registerApp(server, { name: 'District courses', redirect_uris: [CALLBACK] });
    const edu = eduSteps(server, client(server.url));
    const schoolId = await edu.addSchool();
    const teacher = await edu.approvedTeacher(schoolId);
    const classId = await edu.createClass(teacher, schoolId);
    await edu.createPupils(
      teacher,
      classId,
      Array.from({ length: PEOPLE }, (_, i) => `${CHINESE_NAMES[i % CHINESE_NAMES.length]}${i}`),
    );
    // The pupils have accepted the platform's agreements, as earlier versions asked at a pupil's first
    // sign-in (this one does not ask a school's pupils): the same flow when run beside one of them
    // (baseline.mjs).
    const db = server.app.ctx.db;
    const agreements = await db.selectFrom('agreements').select('id').execute();
    const pupils = await db.selectFrom('pupil_accounts').select('user_id').execute();
    await db
      .insertInto('agreement_signatures')
      .values(
        pupils.flatMap((p) =>
          agreements.map((a) => ({ user_id: p.user_id, agreement_id: a.id, signed_at: Date.now() })),
        ),
      )
      .execute();
    const badges = decodeCardQrCodes((await edu.cardSheet(teacher, classId, 'en')).html).map(badgeOf);
    return {
      databaseUrl: server.config.databaseUrl,
      app: { clientId: registered.application.client_id, secret: String(registered.client_secret), callback: CALLBACK },
      password: people.map((p) => ({ password: { identity: p.phone, password: PASSWORD, pid: PID } })),
      sms: people.map((p) => ({ sms: { phone: p.phone, pid: PID } })),
      cards: badges.map((badge) => ({ badge })),
    };
  } finally {
    // The database stays: the server as deployed runs on it next.
    await server.app.close();
  }
};

export interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * What bench/server lifts for its one busy user and the district keeps as shipped (the captcha policy
 * `risk`, the sign-in lock and its slow-down, the code send limits), but for the SMS flow: its 32
 * phones ask for a code again and again, which the send limits and the policy are there to refuse.
 */
const LIFTED_BUT_FOR_SMS = new Set([
  'CAPTCHA_POLICY',
  'LOGIN_LOCK_AFTER',
  'LOGIN_SLOWDOWN_MS',
  'CODE_RESEND_INTERVAL',
  'CODE_DAILY_LIMIT',
  'CODE_IP_HOURLY_LIMIT',
]);

/** The server's settings for `flow`: bench/server's, with what only the SMS flow needs lifted put back. */
const settingsFor = (scratch: string, flow: Flow | 'burst') =>
  Object.fromEntries(
    Object.entries(serverEnvironment(scratch, process.env.BENCH_LOG_LEVEL ?? 'info')).filter(
      ([name]) => flow === 'sms' || !LIFTED_BUT_FOR_SMS.has(name),
    ),
  );

/** The server as deployed on `databaseUrl` for `flow`, pinned to the server core, its log to `logFile`. */
export const startServer = async (
  scratch: string,
  databaseUrl: string,
  flow: Flow | 'burst',
  logFile: string,
  redisUrl?: string,
): Promise<RunningServer> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const bundle = process.env.DISTRICT_SERVER_BUNDLE;
  if (bundle === undefined) throw new Error('run bench/district/run.mjs: it bundles the server first');
  const env = {
    ...settingsFor(scratch, flow),
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    PUBLIC_URL: url,
    EDU_PUPIL_PASSWORD_CHANGE: '0',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  };
  // BENCH_CPU_PROF=<folder>: each server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools, or sum it with `node bench/district/profile.mjs <folder>`).
  const profile = process.env.BENCH_CPU_PROF;
  const node = profile ? ['node', '--cpu-prof', `--cpu-prof-dir=${profile}`] : ['node'];
  const { child } = await startChild(SERVER_CORE, [...node, bundle], env, logFile);
  return { url, pid: Number(child.pid), stop: () => stopChild(child) };
};

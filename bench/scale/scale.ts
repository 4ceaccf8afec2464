/**
 * The console's and the account centre's heavy paths at a national platform's size, on PostgreSQL:
 * two scratch databases (small: 10,000 pupils and 100,000 rows a growing table; large: 1,000,000
 * pupils and 1,000,000 rows), seeded with SQL, each with the real server on it; every path timed over
 * HTTP, small and large in turn, and the large ÷ small ratio printed beside the targets.
 *
 *   node bench/scale/run.mjs [--quick] [--large=N] [--requests=N] [--keep]
 *
 * --quick: large = 100,000 (small 1,000 pupils, 10,000 rows); --large=N: N pupils and rows at the
 * large size; --requests=N: requests per path and size (30, after one warm-up); --keep: the databases
 * stay for EXPLAIN (their names are printed), instead of being dropped.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, dropDatabase, type Seeded, seedDatabase, urlOf } from './database.ts';
import { sizesFor } from './layout.ts';
import { log } from './log.ts';
import { type PathSpec, pathsFor, type Site, searchedAccount } from './paths.ts';
import { type PathResult, summarise, tableOf, writeResults } from './report.ts';
import { configFor, operatorToken, type RunningServer, startServer, stopServer } from './server.ts';
import { measureSweep } from './sweep.ts';

const arg = (name: string) => process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const numberArg = (name: string, fallback: number) => {
  const given = arg(name)?.split('=')[1];
  return given === undefined ? fallback : Number(given);
};

const LARGE = numberArg('large', arg('quick') ? 100_000 : 1_000_000);
const REQUESTS = numberArg('requests', 30);
const KEEP = arg('keep') !== undefined;
const root = join(import.meta.dirname, '../..');

const timed = async (work: () => Promise<void>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

/** One path: a warm-up on each site, then the requests, small and large in turn (which goes first alternates). */
const measurePath = async (path: PathSpec, small: Site, large: Site): Promise<PathResult> => {
  await path.run(small, 0);
  await path.run(large, 0);
  const result: PathResult = {
    name: path.name,
    small: [],
    large: [],
    ...(path.targetMs && { targetMs: path.targetMs }),
  };
  for (let i = 1; i <= REQUESTS; i++) {
    const order = i % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
    for (const which of order) {
      const site = which === 'small' ? small : large;
      result[which].push(await timed(() => path.run(site, i)));
    }
  }
  const s = summarise(result);
  log(
    `${path.name}: small ${s.smallFigures.median.toFixed(1)} ms, large ${s.largeFigures.median.toFixed(1)} ms (${s.ratio.toFixed(2)}×)`,
  );
  return result;
};

const seedBoth = async (names: string[]): Promise<Seeded[]> => {
  const seeded: Seeded[] = [];
  for (const [i, size] of sizesFor(LARGE).entries()) {
    const name = names[i] as string;
    await createDatabase(name);
    log(`${size.label}: database ${name}`);
    seeded.push(await seedDatabase(configFor(urlOf(name)), size, REQUESTS + 1));
  }
  return seeded;
};

const measureBoth = async (names: string[], seeded: Seeded[]) => {
  const logDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const servers: RunningServer[] = [];
  try {
    const sites: Site[] = [];
    for (const [i, s] of seeded.entries()) {
      const url = urlOf(names[i] as string);
      const token = await operatorToken(configFor(url), s.layout.operators.from);
      servers.push(await startServer(s.layout.size.label, url, logDir));
      sites.push({
        url: (servers[i] as RunningServer).url,
        databaseUrl: url,
        token,
        layout: s.layout,
        targets: s.targets,
      });
    }
    const [small, large] = sites as [Site, Site];
    const avoid = new Set([
      ...large.targets.adults,
      ...large.targets.exported,
      ...small.targets.adults,
      ...small.targets.exported,
    ]);
    const year = new Date(Date.now() + 8 * 3_600_000).getUTCFullYear();
    const results: PathResult[] = [];
    for (const path of pathsFor(searchedAccount(small.layout, avoid), year, small.layout.schools))
      results.push(await measurePath(path, small, large));
    const backlog = await measureSweep(small, large);
    results.push(backlog.result);
    log(`server logs in ${logDir}`);
    return {
      results,
      sweepSeconds: servers.map((s) => s.sweepSeconds),
      backlog: { perHour: backlog.perHour, dayOfDeletions: backlog.day },
    };
  } finally {
    for (const server of servers) await stopServer(server);
  }
};

const main = async () => {
  const names = ['small', 'large'].map((label) => `bench_scale_${label}_${process.pid}`);
  try {
    const seeded = await seedBoth(names);
    const { results, sweepSeconds, backlog } = await measureBoth(names, seeded);
    const summaries = results.map(summarise);
    console.log(`\n${tableOf(summaries)}\n`);
    const sizes = seeded.map((s, i) => ({
      ...s.layout.size,
      accounts: s.layout.users,
      schools: s.layout.schools,
      classes: s.layout.classes,
      seedSeconds: Math.round(s.seedSeconds),
      databaseMb: Math.round(s.bytes / 1e6),
      startSweepSeconds: Number(sweepSeconds[i]?.toFixed(1)),
    }));
    for (const size of sizes) log(`${size.label}: ${JSON.stringify(size)}`);
    const file = writeResults(root, { date: new Date().toISOString(), requests: REQUESTS, sizes, backlog }, summaries);
    log(`results in ${file}`);
  } finally {
    if (KEEP) log(`kept: ${names.map(urlOf).join(' ')}`);
    else for (const name of names) await dropDatabase(name);
  }
};

await main();

#!/usr/bin/env node
/**
 * The district bench beside an earlier commit, on this machine, round by round (README.md "Beside an
 * earlier commit"):
 *
 *   npm run bench:district:baseline -- <commit> [rounds]
 *
 * The commit is checked out in a git worktree of its own (in the temp dir, kept for the next run) and
 * given this checkout's installed packages (so the commit's lockfile must be this one's) and this
 * checkout's bench: bench/server, bench/district, the test kit's scratch cluster (which loads the
 * counters), and the load's side (the kit's flows, counters and database client, with the SDK's and
 * the protocol's modules they import where the commit has none). Then each round runs the bench in
 * both, the commit first in odd rounds and this checkout first in even ones, so a slow spell of a
 * shared host falls on both; it prints each flow's CPU per flow (the server's, and PostgreSQL's on
 * PostgreSQL), round by round, the medians and their ratio. SQLite unless BENCH_DATABASES says
 * otherwise. The bench's knobs apply to both sides (BENCH_FLOWS, BENCH_CONCURRENCY, BENCH_DURATION,
 * …); the open loop and the burst are kept short, as they are not compared.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const [commitArg, roundsArg] = process.argv.slice(2);
if (!commitArg) {
  console.error('usage: npm run bench:district:baseline -- <commit> [rounds]');
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 3);
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const git = (...args) => {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
};

const commit = git('rev-parse', '--verify', `${commitArg}^{commit}`);
if (spawnSync('git', ['diff', '--quiet', commit, '--', 'package-lock.json'], { cwd: root }).status !== 0) {
  console.error(
    `${commit.slice(0, 12)} installs other packages than this checkout (package-lock.json differs): ` +
      'this script lends it this checkout’s node_modules, which would measure other code. Choose a commit with the same lockfile.',
  );
  process.exit(2);
}

const worktree = join(tmpdir(), `edupass-baseline-${commit.slice(0, 12)}`);

/** Links every entry of `from` into `to` (a new directory), but those in `except` (the caller makes them). */
const linkEntries = (from, to, except = []) => {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (except.includes(entry) || existsSync(join(to, entry))) continue;
    symlinkSync(join(from, entry), join(to, entry));
  }
};

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * This checkout's `<pkg>/src/<name>.ts` in the worktree when the commit has none (a self-contained
 * module), made reachable: an entry added to the package's manifest (`addExport`), or a line added to
 * its index (`indexLine`).
 */
const lend = (pkg, name, addExport, indexLine) => {
  const there = join(worktree, pkg, 'src', `${name}.ts`);
  if (existsSync(there)) return;
  copyFileSync(join(root, pkg, 'src', `${name}.ts`), there);
  if (addExport) {
    const manifestFile = join(worktree, pkg, 'package.json');
    const manifest = readJson(manifestFile);
    addExport(manifest);
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  if (indexLine) appendFileSync(join(worktree, pkg, 'src/index.ts'), indexLine);
};

/** The commit's worktree with this checkout's packages and bench. */
const prepare = () => {
  if (!existsSync(worktree)) {
    log(`checking ${commit.slice(0, 12)} out in ${worktree}…`);
    // A worktree of an earlier run whose folder the temp dir lost (a reboot) is still registered.
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', worktree, commit);
  }
  // The packages, but the workspace's own: those must be the commit's (npm links them relatively).
  linkEntries(join(root, 'node_modules'), join(worktree, 'node_modules'), ['@edupass']);
  const workspace = join(worktree, 'node_modules/@edupass');
  mkdirSync(workspace, { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules/@edupass'))) {
    if (!existsSync(join(workspace, name))) symlinkSync(join('../../packages', name), join(workspace, name));
  }
  // Packages npm keeps under a workspace; the bench's bundles go to the server's .cache, its own here.
  for (const name of readdirSync(join(root, 'packages'))) {
    const modules = join(root, 'packages', name, 'node_modules');
    if (existsSync(modules) && existsSync(join(worktree, 'packages', name))) {
      linkEntries(modules, join(worktree, 'packages', name, 'node_modules'), ['.cache']);
    }
  }
  // This checkout's bench, over the commit's.
  for (const folder of ['bench/server', 'bench/district']) {
    mkdirSync(join(worktree, folder), { recursive: true });
    for (const file of readdirSync(join(root, folder)))
      copyFileSync(join(root, folder, file), join(worktree, folder, file));
  }
  for (const file of ['bench/run-server-script.mjs', 'scripts/server-bundle.mjs', 'scripts/server-bundle.d.mts']) {
    copyFileSync(join(root, file), join(worktree, file));
  }
  // The load's side is this checkout's on both sides (the bench's load.ts calls what its flows export):
  // the test kit's flows, counters and database client, and what the flows import that an earlier
  // commit may lack: the account SDK's `busy` entry (a 503 asked again) and the protocol's client codes.
  for (const file of ['sign-in-flows.ts', 'pg-counters.ts', 'cookie-browser.ts', 'pg-client.ts']) {
    copyFileSync(join(root, 'packages/test-kit/src', file), join(worktree, 'packages/test-kit/src', file));
  }
  lend('packages/account', 'busy', (manifest) => {
    manifest.exports['./busy'] = readJson(join(root, 'packages/account/package.json')).exports['./busy'];
  });
  lend('packages/protocol', 'client-codes', undefined, "export * from './client-codes.ts';\n");
  // The bench's cluster counts (pg_stat_statements loaded, WAL synced): earlier kits' scratch cluster
  // took no settings, and the bench's first count on it failed.
  copyFileSync(
    join(root, 'packages/test-kit/src/scratch-postgres.ts'),
    join(worktree, 'packages/test-kit/src/scratch-postgres.ts'),
  );
};

/** One run of the bench in `checkout`: its measurements (bench/results/district.json). */
const runBench = (checkout, label, round) =>
  new Promise((resolve, reject) => {
    const results = join(checkout, 'bench/results/district.json');
    rmSync(results, { force: true });
    const env = {
      ...process.env,
      BENCH_DATABASES: process.env.BENCH_DATABASES ?? 'sqlite',
      BENCH_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? '4',
      BENCH_FLOWS: process.env.BENCH_FLOWS ?? 'password,card,refresh',
      BENCH_OPEN_SECONDS: process.env.BENCH_OPEN_SECONDS ?? '1',
      BENCH_BURST: process.env.BENCH_BURST ?? '5',
    };
    const child = spawn(process.execPath, ['bench/district/run.mjs'], { cwd: checkout, env, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      if (code !== 0 || !existsSync(results)) {
        reject(new Error(`${label}, round ${round}: the bench ended with ${code}\n${output.slice(-3000)}`));
        return;
      }
      const measured = JSON.parse(readFileSync(results, 'utf8')).measured;
      for (const m of measured) {
        log(
          `${label} round ${round}: ${m.database} ${m.flow} ×${m.concurrency} ${cpuOf(m).toFixed(2)} ms of CPU per flow`,
        );
      }
      resolve(measured);
    });
  });

/** CPU per flow: the server's, and on PostgreSQL the database's too (as "per core" counts it). */
const cpuOf = (m) => m.serverCpuMs + (m.databaseCpuMs ?? 0);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

prepare();
const head = git('rev-parse', '--short=12', 'HEAD');
const sides = [
  { label: commit.slice(0, 12), checkout: worktree, runs: [] },
  { label: head, checkout: root, runs: [] },
];
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? sides : [...sides].reverse();
  for (const side of order) side.runs.push(await runBench(side.checkout, side.label, round));
}

console.log('');
console.log(
  `CPU per flow (ms: the server's, with PostgreSQL's on PostgreSQL), ${ROUNDS} rounds alternating; ratio = this checkout (${head}) ÷ ${commit.slice(0, 12)}`,
);
console.log(
  '| database | flow | at once | baseline: rounds | median | this checkout: rounds | median | ratio | per core, baseline → this |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
const [baseline, current] = sides;
for (const m of baseline.runs[0]) {
  const same = (x) => x.database === m.database && x.flow === m.flow && x.concurrency === m.concurrency;
  const of = (side) => side.runs.map((run) => cpuOf(run.find(same) ?? { serverCpuMs: Number.NaN }));
  const before = of(baseline);
  const after = of(current);
  const ratio = median(after) / median(before);
  const cells = (values) => values.map((v) => v.toFixed(1)).join(', ');
  console.log(
    `| ${m.database} | ${m.flow} | ${m.concurrency} | ${cells(before)} | ${median(before).toFixed(1)} | ${cells(after)} | ${median(after).toFixed(1)} | ${ratio.toFixed(2)}× | ${(1000 / median(before)).toFixed(0)} → ${(1000 / median(after)).toFixed(0)} |`,
  );
}
log(`done; the worktree stays in ${worktree} (git worktree remove --force ${worktree} to drop it)`);

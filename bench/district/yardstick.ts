/**
 * The host's yardstick: argon2id hashes at the shipped cost, timed on the server's core before the
 * load starts. The per-core targets were set on a host where one cost 10.3–10.8 ms of CPU (issue: a
 * district at 08:00); the line printed under the verdicts says how this host compares, so that a rate
 * read on a slower host is read as such (README "What bounds the per-core rates"). It is a yardstick
 * of the hash, a memory-hard native workload: the flows' JavaScript has varied more from host to host.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ARGON2_OPTIONS } from '../../packages/server/src/services/passwords/argon2.ts';
import { SERVER_CORE } from './setup.ts';

/** What one hash cost where the targets were set, ms: the range read there, and its middle. */
const TARGETS_HOST_HASH_RANGE = [10.3, 10.8] as const;
const TARGETS_HOST_HASH_MS = (TARGETS_HOST_HASH_RANGE[0] + TARGETS_HOST_HASH_RANGE[1]) / 2;

// Three hashes to warm up, then twenty timed by the process's own CPU clock (the hash runs on a
// worker thread, which the process's clock counts too); Argon2id at the server's cost (argon2.ts).
// Only ARGON2_OPTIONS is imported from the server: bench:district:baseline runs this file against
// earlier commits' servers, which have it (and name the algorithm by a private constant).
const HASHES = `
const { hash, Algorithm } = await import('@node-rs/argon2');
const cost = { algorithm: Algorithm.Argon2id, ...JSON.parse(process.env.ARGON2_COST) };
for (let i = 0; i < 3; i++) await hash('warm-up ' + i, cost);
const before = process.cpuUsage();
for (let i = 0; i < 20; i++) await hash('yardstick ' + i, cost);
const used = process.cpuUsage(before);
console.log((used.user + used.system) / 1000 / 20);
`;

/** CPU ms of one hash on the server's core; undefined when it could not be timed (said why). */
export const hashCpuMs = (): number | undefined => {
  const run = spawnSync('taskset', ['-c', SERVER_CORE, process.execPath, '--input-type=module', '-e', HASHES], {
    cwd: process.cwd(),
    encoding: 'utf8',
    env: { ...process.env, ARGON2_COST: JSON.stringify(ARGON2_OPTIONS) },
  });
  const ms = Number((run.stdout ?? '').trim());
  if (run.status === 0 && Number.isFinite(ms) && ms > 0) return ms;
  const why = run.error?.message ?? (run.stderr ?? '').trim().slice(0, 300);
  console.error(`the host's yardstick (argon2id hashes) could not be timed: ${why}`);
  return undefined;
};

/**
 * The host's transparent huge pages, the bracketed choice (`always [madvise] never`): at `never` a hash
 * cost 5.8 times as much on a virtual machine (server services/passwords/huge-pages.ts, which this file does not
 * import: bench:district:baseline runs it against commits that have no such file).
 */
const hugePages = () => {
  try {
    return readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').match(/\[(\w+)\]/)?.[1];
  } catch {
    return undefined;
  }
};

/** The line under the verdicts: this host's hash beside the targets' host's. */
export const describeHost = (model: string | undefined, ms: number | undefined) => {
  const pages = `transparent huge pages: ${hugePages() ?? 'unknown'}`;
  return ms === undefined
    ? `This host: ${model ?? 'an unknown CPU'}; ${pages}.`
    : `This host: ${model ?? 'an unknown CPU'}; ${pages}; an argon2id hash at the shipped cost took ${ms.toFixed(1)} ms of CPU ` +
        `on the server's core, where the targets were set ${TARGETS_HOST_HASH_RANGE.join('–')} ms: ${(ms / TARGETS_HOST_HASH_MS).toFixed(2)}× as long.`;
};

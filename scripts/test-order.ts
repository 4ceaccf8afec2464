/**
 * The order in which `npm test` starts its files, from the durations of the last run kept in
 * scripts/test-durations.json (committed, so a clean clone has them too; Vitest's own cache of
 * durations lives in node_modules). With several workers a run ends when its last file does: a long
 * file started late leaves the other workers idle, so the long ones start first. The reporter below, which
 * scripts/test.mjs adds to its runs, writes each file's duration back at the end of the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';

const root = join(import.meta.dirname, '..');
export const DURATIONS_FILE = join(root, 'scripts', 'test-durations.json');
/** This run's durations alone, for the summary scripts/test.mjs prints (the slowest files). */
export const RUN_DURATIONS_FILE = join(root, '.tmp', 'test-durations-run.json');

/** Milliseconds per "project:path" (the path from the repository's root). */
export type Durations = Record<string, number>;

/**
 * A file at least this long starts before the files grouped by project (below), wherever its
 * project comes: these are the files a schedule must not leave for the end.
 */
const LONG_MS = 30_000;

const readDurations = (file: string): Durations =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Durations) : {};

const keyOf = (project: string, moduleId: string) => `${project}:${relative(root, moduleId)}`;

/** The middle value of `values` (0 for none). */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A file to run: its project and its path from the repository's root. */
export interface Planned {
  project: string;
  path: string;
}

/**
 * The order to start `files` in, longest first as `durations` (the last run) measured them; a file with
 * no duration yet (new) counts as a typical file of its project (the median of the project's known
 * files). Past the long files the rest stay together by project, longest first within it: a worker of
 * a project that does not isolate its files (the server's) takes the next file of the same project
 * without importing the server again, which it cannot when the next file is another project's.
 */
export const startOrder = <F extends Planned>(files: F[], durations: Durations): F[] => {
  const typical = new Map<string, number>();
  for (const name of new Set(files.map((file) => file.project))) {
    const known = Object.entries(durations).flatMap(([key, ms]) => (key.startsWith(`${name}:`) ? [ms] : []));
    typical.set(name, median(known));
  }
  const duration = (file: F) => durations[`${file.project}:${file.path}`] ?? typical.get(file.project) ?? 0;
  const longestFirst = (a: F, b: F) => duration(b) - duration(a) || a.path.localeCompare(b.path);
  const long = files.filter((file) => duration(file) >= LONG_MS).sort(longestFirst);
  const byProject = new Map<string, F[]>();
  for (const file of files) {
    if (duration(file) >= LONG_MS) continue;
    byProject.set(file.project, [...(byProject.get(file.project) ?? []), file]);
  }
  const groups = [...byProject.values()].map((group) => group.sort(longestFirst));
  // The group whose longest file is longest goes first, so the run ends on the shortest files.
  groups.sort((a, b) => longestFirst(a[0] as F, b[0] as F));
  return [...long, ...groups.flat()];
};

/** Vitest's sequencer: the files of a run in `startOrder`, by scripts/test-durations.json. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const planned = files.map((spec) => ({ spec, project: spec.project.name, path: relative(root, spec.moduleId) }));
    return startOrder(planned, readDurations(DURATIONS_FILE)).map(({ spec }) => spec);
  }
}

/**
 * Writes each file's duration (import, setup and every test and hook) into scripts/test-durations.json,
 * keeping the entries of files this run did not run unless the file is gone, and into this run's file.
 */
export default class DurationsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const run: Durations = {};
    for (const module of testModules) {
      if (module.state() === 'skipped' || module.state() === 'pending') continue;
      const d = module.diagnostic();
      run[keyOf(module.project.name, module.moduleId)] = Math.round(
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
      );
    }
    if (Object.keys(run).length === 0) return;
    const kept = Object.entries(readDurations(DURATIONS_FILE)).filter(([key]) =>
      existsSync(join(root, key.slice(key.indexOf(':') + 1))),
    );
    const merged = Object.fromEntries(
      Object.entries({ ...Object.fromEntries(kept), ...run }).sort(([a], [b]) => a.localeCompare(b)),
    );
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
    writeFileSync(RUN_DURATIONS_FILE, `${JSON.stringify({ ...readDurations(RUN_DURATIONS_FILE), ...run }, null, 2)}\n`);
  }
}

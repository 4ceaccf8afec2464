/**
 * A 50,000-row OneRoster 1.2 CSV set (4 schools, 200 classes, 25,000 pupils and their 25,000
 * enrollments) imported through the same service functions the admin routes call: upload and preview,
 * confirm, then the same zip again (preview and confirm, which change nothing), then a new school year
 * that moves every pupil to the next class of their school (25,000 changed memberships). On PostgreSQL
 * (EDUPASS_BENCH_PG_URL, default the local server; a scratch database is created and dropped), and on
 * SQLite too with ROSTER_BENCH_SQLITE=1. Target: the first import (preview + confirm) under 60 s on
 * PostgreSQL.
 *
 *   node bench/schools/roster.mjs
 */
import { loadavg } from 'node:os';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { createContext } from '../../packages/server/src/context.ts';
import { confirmRosterImport, previewRosterImport } from '../../packages/server/src/services/edu/roster/jobs.ts';
import { rosterSet, rosterZip } from '../../packages/test-kit/src/oneroster.ts';
import { onBothDatabases } from '../both-databases.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];
const TARGET_MS = 60_000;

const ms = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, Math.round(performance.now() - started)];
};

const run = async (label: string, databaseUrl: string) => {
  if (label === 'sqlite' && process.env.ROSTER_BENCH_SQLITE !== '1') return;
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const ctx = await createContext(config, silent);
  try {
    const set = rosterSet({ schools: 4, classesPerSchool: 50, pupilsPerClass: 125 });
    const rows = Object.values(set).reduce((n, file) => n + file.length, 0);
    const [zip, zipMs] = await ms(async () => rosterZip(set));
    const [job, previewMs] = await ms(() => previewRosterImport(ctx, undefined, { bytes: zip }));
    const [, confirmMs] = await ms(() => confirmRosterImport(ctx, undefined, job.id, {}));
    const [again, previewAgainMs] = await ms(() => previewRosterImport(ctx, undefined, { bytes: zip }));
    const changed = Object.entries(again.counts).filter(([, n]) => n !== 0);
    const [, confirmAgainMs] = await ms(() => confirmRosterImport(ctx, undefined, again.id, {}));
    const importMs = previewMs + confirmMs;
    // A new school year: each enrollment now names the next class of its school.
    const nextClass = (klass: string) =>
      klass.replace(/^class-(\d+)-(\d+)$/, (_, s: string, c: string) => `class-${s}-${(Number(c) + 1) % 50}`);
    const moved = rosterZip({
      ...set,
      enrollments: set.enrollments.map((row) => row.map((value, i) => (i === 3 ? nextClass(value) : value))),
    });
    const [move, movePreviewMs] = await ms(() => previewRosterImport(ctx, undefined, { bytes: moved }));
    const [, moveConfirmMs] = await ms(() => confirmRosterImport(ctx, undefined, move.id, {}));
    const figures = {
      database: label,
      rows,
      zipBytes: zip.length,
      zipMs,
      pupilsCreated: job.counts.pupils_created,
      previewMs,
      confirmMs,
      importMs,
      importTargetMs: TARGET_MS,
      withinTarget: importMs < TARGET_MS,
      reimportPreviewMs: previewAgainMs,
      reimportConfirmMs: confirmAgainMs,
      reimportChanges: changed,
      membershipsMoved: move.counts.memberships_changed,
      movePreviewMs,
      moveConfirmMs,
      loadAverage1m: Number(loadavg()[0]?.toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await ctx.close();
  }
};

await onBothDatabases('roster', run);

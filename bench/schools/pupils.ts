/**
 * Pupil accounts at class and school scale, through the same service functions the routes call, on
 * embedded SQLite and on PostgreSQL (EDUPASS_BENCH_PG_URL, default the local server; a scratch
 * database is created and dropped):
 *  1. 100 pupils created in one call, then their card sheet (100 QR codes): target under 1 s;
 *  2. a 1,000-pupil import: ten calls of 100 (quotas raised for the run): target under 10 s.
 * Each is measured ROUNDS times (the median is printed beside its target, with the slowest round and
 * the machine's load average, since a shared machine's figures swing). One argon2id hash is measured
 * too: creation hashes nothing any more (initial passwords are kept sealed), so it says how loaded
 * the machine was rather than what creation costs.
 *
 *   node bench/schools/run.mjs   (profile: node --cpu-prof --cpu-prof-dir=<dir> bench/schools/run.mjs)
 */
import { loadavg } from 'node:os';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { type Context, createContext } from '../../packages/server/src/context.ts';
import { cardSheet } from '../../packages/server/src/services/edu/school/cards.ts';
import { createClass } from '../../packages/server/src/services/edu/school/classes.ts';
import { createPupils } from '../../packages/server/src/services/edu/school/pupils.ts';
import { addSchool, approveTeacher, requestTeaching } from '../../packages/server/src/services/edu/school/schools.ts';
import { hashPassword } from '../../packages/server/src/services/passwords/argon2.ts';
import { newUser } from '../../packages/server/src/services/sign-in/sign-up.ts';
import { insertUser } from '../../packages/server/src/store/account/users.ts';
import { onBothDatabases } from '../both-databases.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof createContext>[1];

const names = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `学生${from + i}号`);

const ms = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

const teacherIn = async (ctx: Context) => {
  const phone = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const teacher = await insertUser(ctx.db, newUser(ctx, { pid: 'edupass', phone }));
  if (!teacher) throw new Error('no teacher');
  const school = await addSchool(ctx, teacher.id, { name: 'Bench school', daily_batches: 1000 });
  await requestTeaching(ctx, teacher.id, school.id);
  await approveTeacher(ctx, teacher.id, school.id, teacher.id, true);
  return { teacherId: teacher.id, schoolId: school.id };
};

const ROUNDS = 3;
const TARGETS = { create100PlusSheetMs: 1_000, import1000Ms: 10_000 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** One round: a class of 100 with its card sheet, then a 1,000-pupil import into another class. */
const round = async (ctx: Context, teacherId: number, schoolId: number, n: number) => {
  const newClass = async (name: string) =>
    (await createClass(ctx, teacherId, schoolId, { name: `${name} ${n}`, grade: 3, school_year: '2026' })).id;
  const classId = await newClass('Class 100');
  const create100 = await ms(() => createPupils(ctx, teacherId, classId, names(100)));
  const sheet = await ms(() => cardSheet(ctx, teacherId, classId, undefined, 'zh-CN'));
  const bigClass = await newClass('Import');
  const import1000 = await ms(async () => {
    for (let batch = 0; batch < 10; batch++) await createPupils(ctx, teacherId, bigClass, names(100, batch * 100));
  });
  return { create100, sheet, import1000 };
};

const run = async (label: string, databaseUrl: string) => {
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl }), eduTeacherDailyBatches: 1000 };
  const ctx = await createContext(config, silent);
  try {
    const { teacherId, schoolId } = await teacherIn(ctx);
    const rounds = [];
    for (let n = 0; n < ROUNDS; n++) rounds.push(await round(ctx, teacherId, schoolId, n));
    const both = rounds.map((r) => r.create100 + r.sheet);
    const imports = rounds.map((r) => r.import1000);
    const hash = await ms(() => hashPassword('Bench-pass-2026'));
    const figures = {
      database: label,
      create100Ms: Math.round(median(rounds.map((r) => r.create100))),
      cardSheet100Ms: Math.round(median(rounds.map((r) => r.sheet))),
      create100PlusSheetMs: Math.round(median(both)),
      create100PlusSheetSlowestMs: Math.round(Math.max(...both)),
      create100PlusSheetTargetMs: TARGETS.create100PlusSheetMs,
      import1000Ms: Math.round(median(imports)),
      import1000SlowestMs: Math.round(Math.max(...imports)),
      import1000TargetMs: TARGETS.import1000Ms,
      withinTargets: median(both) < TARGETS.create100PlusSheetMs && median(imports) < TARGETS.import1000Ms,
      argon2HashMs: Math.round(hash),
      loadAverage1m: Number(loadavg()[0]?.toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await ctx.close();
  }
};

await onBothDatabases('schools', run);

/**
 * Pupil accounts at class and school scale, through the same service functions the routes call, on
 * embedded SQLite and on PostgreSQL (EDUPASS_BENCH_PG_URL, default the local server; a scratch
 * database is created and dropped):
 *  1. 100 pupils created in one call, then their card sheet (100 QR codes);
 *  2. a 1,000-pupil import: ten calls of 100 (quotas raised for the run).
 * The baseline, measured in the same run, is one argon2id hash: creation hashes every initial
 * password, so the ratio says how much of the time is the hashing itself. No time is asserted.
 *
 *   node bench/schools/run.mjs
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../packages/server/src/config/config.ts';
import { type Context, createContext } from '../../packages/server/src/context.ts';
import { cardSheet } from '../../packages/server/src/services/edu/cards.ts';
import { createClass } from '../../packages/server/src/services/edu/classes.ts';
import { createPupils } from '../../packages/server/src/services/edu/pupils.ts';
import { addSchool, approveTeacher, requestTeaching } from '../../packages/server/src/services/edu/schools.ts';
import { hashPassword } from '../../packages/server/src/services/passwords/argon2.ts';
import { newUser } from '../../packages/server/src/services/sign-in/sign-up.ts';
import { insertUser } from '../../packages/server/src/store/account/users.ts';

const PG_URL = process.env.EDUPASS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
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

const run = async (label: string, databaseUrl: string) => {
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl }), eduTeacherDailyBatches: 1000 };
  const ctx = await createContext(config, silent);
  try {
    const { teacherId, schoolId } = await teacherIn(ctx);
    const classId = (await createClass(ctx, teacherId, schoolId, { name: 'Class 100', grade: 3, school_year: '2026' }))
      .id;
    const create100 = await ms(() => createPupils(ctx, teacherId, classId, names(100)));
    const sheet = await ms(() => cardSheet(ctx, teacherId, classId, undefined, 'zh-CN'));
    const bigClass = (await createClass(ctx, teacherId, schoolId, { name: 'Import', grade: 3, school_year: '2026' }))
      .id;
    const import1000 = await ms(async () => {
      for (let batch = 0; batch < 10; batch++) await createPupils(ctx, teacherId, bigClass, names(100, batch * 100));
    });
    const hash = await ms(() => hashPassword('Bench-pass-2026'));
    process.stdout.write(
      `${JSON.stringify({
        database: label,
        create100Ms: Math.round(create100),
        cardSheet100Ms: Math.round(sheet),
        create100PlusSheetMs: Math.round(create100 + sheet),
        import1000Ms: Math.round(import1000),
        argon2HashMs: Math.round(hash),
        import1000InHashes: Math.round(import1000 / hash),
      })}\n`,
    );
  } finally {
    await ctx.close();
  }
};

const dir = mkdtempSync(join(tmpdir(), 'bench-schools-'));
try {
  await run('sqlite', join(dir, 'bench.db'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const database = `bench_schools_${process.pid}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
try {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  await run('postgres', url.href);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
}

/**
 * The paths that must stay fast at a year of data read through indexes proportional to their answer,
 * on PostgreSQL: every statement that erasing a person, taking a copy of their data, removing an
 * application, the console's user search, the audit filters and the yearly report run is captured as it
 * runs, then explained with sequential scans disabled; so is every page of the lists that grow with a
 * platform (the school list, teacher requests, the reads of a person's record), the first and one after a
 * key. A statement that can only read a whole table (a sequential
 * scan, or an index walked end to end under a filter) fails here, so a later change cannot bring one back.
 */
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '@edupass/test-kit/databases';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { yearlyReport } from '../services/admin/yearly-report.ts';
import { eraseUserRows, type Person } from './account/erasure.ts';
import { EXPORT_RULES } from './account/export-map.ts';
import { auditEntries, operatorAccounts, searchUsers } from './admin/admin.ts';
import { accessLogOf } from './edu/access-log.ts';
import { agreementsInForce } from './edu/family/guardian-checks.ts';
import { takenUsernames } from './edu/school/pupils.ts';
import { schoolsPage, type TeacherRequestKey, teacherRequests } from './edu/school/schools.ts';
import { deleteApplication } from './identity/applications.ts';
import { findModel, findTokenWithGrantAndSession } from './identity/oidc-models.ts';
import type { Database } from './schema.ts';
import { sqlEventsStore } from './usage/events-sql.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** The nodes of a plan that read a whole table: a sequential scan, or an index walked with no condition but a filter. */
const wholeTableReads = (node: PlanNode): string[] => [
  ...(node['Node Type'] === 'Seq Scan' ? [`Seq Scan on ${node['Relation Name']}`] : []),
  ...(/^Index (Only )?Scan$/.test(node['Node Type']) && !node['Index Cond'] && node.Filter
    ? [`${node['Node Type']} of all ${node['Index Name']} (filter ${node.Filter})`]
    : []),
  ...(node.Plans ?? []).flatMap(wholeTableReads),
];

/** The scans of an executed plan that found more than `most` rows: "Bitmap Index Scan on x: 20000 rows". */
const readsOverAnswer = (node: PlanNode, most: number): string[] => [
  ...(/Scan$/.test(node['Node Type']) && (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) > most
    ? [`${node['Node Type']} on ${node['Index Name'] ?? node['Relation Name']}: ${node['Actual Rows']} rows`]
    : []),
  ...(node.Plans ?? []).flatMap((child) => readsOverAnswer(child, most)),
];

describe.runIf(testDatabaseKind() === 'postgres')('a year of data, on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let captured: CompiledQuery[] = [];
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === 'query') captured.push(event.query);
      },
    });
    // Enough people, audit rows and events that the planner's estimates are those of a real table.
    await sql`insert into users (pid, phone, username, username_key, email, nickname, password_hash, role, created_at, updated_at)
      select 'edu', '139' || lpad(i::text, 8, '0'), 'pupil' || i, 'pupil' || i, 'p' || i || '@school.cn', '学生' || i, '', 'user', i, i
      from generate_series(1, 20000) i`.execute(db);
    await sql`insert into admin_audit (operator_id, action, target, detail, at)
      select case when i % 500 = 0 then 99 else 1 + i % 3 end,
        case when i % 1000 = 0 then 'user.delete' when i % 1000 = 1 then 'user.block' else 'user.view.' || (i % 5) end,
        'user:' || i, '', i from generate_series(1, 20000) i`.execute(db);
    // A platform's schools, their teachers (one in twenty waiting) and the reads of people's records.
    await sql`insert into schools (name, created_at) select '学校' || i, i from generate_series(1, 5000) i`.execute(db);
    await sql`insert into school_members (school_id, user_id, role, status, created_at)
      select 1 + i % 5000, i, case when i % 10 = 0 then 'school_admin' else 'teacher' end,
        case when i % 20 = 1 then 'pending' when i % 20 = 2 then 'refused' else 'approved' end, i
      from generate_series(1, 20000) i`.execute(db);
    await sql`insert into edu_access_log (reader_id, subject_id, fields, purpose, reader_role, created_at)
      select 1 + i % 50, 1 + i % 20000, 'name,class', 'class_detail', 'teacher', i from generate_series(1, 40000) i`.execute(
      db,
    );
    // As autovacuum leaves a table: its statistics current (the trigram indexes keep no pending
    // entries to merge: a test below writes accounts after it).
    for (const table of ['users', 'admin_audit', 'schools', 'school_members', 'edu_access_log']) {
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    }
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /** Every statement `run` sends, explained with sequential scans off: those that read a whole table. */
  const wholeReadsOf = async (run: () => Promise<unknown>) => {
    captured = [];
    await run();
    const statements = captured.filter((q) => /^\s*(select|update|delete|with)\b/i.test(q.sql));
    expect(statements.length).toBeGreaterThan(0);
    const found: string[] = [];
    const client = await pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      for (const statement of statements) {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json) ${statement.sql}`,
          [...statement.parameters],
        );
        for (const read of wholeTableReads(rows[0]!['QUERY PLAN'][0].Plan)) found.push(`${read}: ${statement.sql}`);
      }
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
    return found;
  };

  const person: Person = { id: 4321, phone: '13900004321', email: 'p4321@school.cn' };

  test('erasing a person: each of their rows found by an index, their usage events and visitor days too', async () => {
    expect(await wholeReadsOf(() => db.transaction().execute((tx) => eraseUserRows(tx, person)))).toEqual([]);
    expect(await wholeReadsOf(() => sqlEventsStore(db).eraseUser(person.id))).toEqual([]);
  });

  test("a person's copy of their data: each area read by an index", async () => {
    const reads = Object.values(EXPORT_RULES).flatMap((rule) => ('read' in rule ? [rule.read] : []));
    expect(await wholeReadsOf(() => Promise.all(reads.map((read) => read(db, person))))).toEqual([]);
    expect(await wholeReadsOf(() => sqlEventsStore(db).userEventsAfter(person.id, undefined, 100))).toEqual([]);
  });

  test('removing an application takes its grants and tokens by their client id', async () => {
    expect(await wholeReadsOf(() => deleteApplication(db, 'app_gone'))).toEqual([]);
  });

  test("the console's user search: whole values, beginnings and fragments, found or not", async () => {
    for (const q of [
      '13900012345',
      '#12345',
      'pupil12345',
      'p12345@school.cn',
      '学生12345',
      '139000123',
      'pupil1234',
    ]) {
      expect(await wholeReadsOf(() => searchUsers(db, q, undefined, 30)), q).toEqual([]);
    }
    for (const q of ['0012345', '139****2345', '生1234', 'upil1234', 'nobody-at-all', '无此人甲乙']) {
      expect(await wholeReadsOf(() => searchUsers(db, q, undefined, 30)), q).toEqual([]);
    }
    expect(await wholeReadsOf(() => searchUsers(db, 'pupil', 1000, 30))).toEqual([]);
  });

  test("a roster's or a class's new usernames are looked up by the unique index, never the search's trigrams", async () => {
    // A roster's pupils as an import inserts them, batch after batch with no vacuum between (their
    // entries still pending in any trigram index), then the next batch's 400 usernames checked at once:
    // each must be found by its whole value. A trigram index on the column itself answered this IN list
    // too, and the planner took it (1.2–2.2 s a batch where the B-tree takes a millisecond: 60 of a
    // 25,000-pupil import's 68 s); the search's trigram indexes are on `column || ''` since 064.
    await sql`insert into users (pid, username, username_key, nickname, password_hash, role, created_at, updated_at)
      select 'edu', 's1' || substr(md5(i::text), 1, 6), 's1' || substr(md5(i::text), 1, 6), 'roster' || i, '', 'user', i, i
      from generate_series(1, 5000) i`.execute(db);
    const { rows: batch } = await sql<{ username_key: string }>`select username_key from users
      where nickname like 'roster%' order by id limit 400`.execute(db);
    const candidates = batch.map((row) => row.username_key);
    captured = [];
    expect((await takenUsernames(db, candidates)).size).toBe(400);
    const [statement] = captured;
    if (statement === undefined) throw new Error('no statement captured');
    const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (analyze, format json) ${statement.sql}`,
      [...statement.parameters],
    );
    const plan = rows[0]!['QUERY PLAN'][0].Plan;
    const indexes = (node: PlanNode): string[] => [
      ...(node['Index Name'] ? [node['Index Name']] : []),
      ...(node.Plans ?? []).flatMap(indexes),
    ];
    expect(indexes(plan).filter((name) => /trigrams|fragments/.test(name))).toEqual([]);
    expect(readsOverAnswer(plan, 400)).toEqual([]);
  });

  test("the search's fragments read their indexes alone, however many accounts were written since a vacuum", async () => {
    // New accounts with no vacuum since (autovacuum reaches a table of millions only after hundreds of
    // thousands of changes): with GIN's pending list, each fragment search read every entry written
    // since besides the index, up to 4 MB an index (bench/scale, migration 066).
    await sql`insert into users (pid, username, username_key, email, nickname, password_hash, role, created_at, updated_at)
      select 'edu', 'late' || i, 'late' || i, 'late' || i || '@school.cn', '新生' || i, '', 'user', i, i
      from generate_series(1, 5000) i`.execute(db);
    const pagesRead = (node: PlanNode): string[] => [
      ...(node['Index Name']?.endsWith('_fragments')
        ? [`${node['Index Name']}: ${(node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0)}`]
        : []),
      ...(node.Plans ?? []).flatMap(pagesRead),
    ];
    for (const q of ['zqxjv', 'ate499']) {
      captured = [];
      await searchUsers(db, q, undefined, 30);
      const fragments = captured.filter((statement) => /with "holding"/i.test(statement.sql));
      expect(fragments, q).toHaveLength(1);
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (analyze, buffers, format json) ${fragments[0]!.sql}`,
        [...fragments[0]!.parameters],
      );
      const plan = rows[0]!['QUERY PLAN'][0].Plan;
      // As planned, not forced: a pending list the planner must read made it choose the whole table.
      expect(wholeTableReads(plan), q).toEqual([]);
      const reads = pagesRead(plan);
      expect(reads.length, q).toBeGreaterThan(0);
      // A few pages a trigram (7–10 here); the 5,000 accounts' pending entries alone were 84–236 pages an index.
      for (const read of reads) expect(Number(read.split(': ')[1]), `${q}: ${read}`).toBeLessThanOrEqual(40);
    }
  });

  test('the list of operators the audit filter offers reads the operators only', async () => {
    expect(await wholeReadsOf(() => operatorAccounts(db))).toEqual([]);
  });

  test('the audit log filtered by a rare action, an operator, or a group of actions, newest first', async () => {
    for (const filter of [{ action: 'user.delete' }, { operatorId: 99 }, { actions: ['user.delete', 'user.block'] }]) {
      expect(await wholeReadsOf(() => auditEntries(db, { limit: 50, ...filter })), JSON.stringify(filter)).toEqual([]);
    }
  });

  test('the school list: its first page and one before a school, with their agreements', async () => {
    for (const before of [undefined, 2500]) {
      expect(await wholeReadsOf(() => schoolsPage(db, { before, limit: 50 })), String(before)).toEqual([]);
    }
    expect(await wholeReadsOf(() => agreementsInForce(db, [2500, 2499, 2498]))).toEqual([]);
  });

  test('teacher requests, waiting or approved, of every school or of one: the first page and one after a request', async () => {
    const keys: (TeacherRequestKey | undefined)[] = [
      undefined,
      { status: 'pending', created_at: 10_001, school_id: 1, user_id: 10_001 },
    ];
    for (const status of ['pending', 'approved'] as const) {
      for (const schoolId of [undefined, 1]) {
        for (const after of keys) {
          const page = { status, schoolId, after: after && { ...after, status }, limit: 50 };
          expect(await wholeReadsOf(() => teacherRequests(db, page)), JSON.stringify(page)).toEqual([]);
        }
      }
    }
  });

  test("the reads of a person's record: the first page and one after a read", async () => {
    const subject = 1234;
    const first = await accessLogOf(db, subject, { after: undefined, limit: 1 });
    expect(first).toHaveLength(1);
    for (const after of [undefined, Number(first[0]!.id)]) {
      expect(await wholeReadsOf(() => accessLogOf(db, subject, { after, limit: 100 })), String(after)).toEqual([]);
    }
  });

  test("the yearly report: the year's counters and its requests, each read by an index", async () => {
    expect(await wholeReadsOf(() => yearlyReport({ readDb: db }, 2026))).toEqual([]);
  });

  /**
   * The provider's reads of every sign-in, token and userinfo request, as a warm server runs them
   * (prepared: PostgreSQL's generic plan), on a table the planner has no statistics of yet (a new
   * deployment, or one autovacuum has not analysed since it grew): each scan finds the rows of the
   * answer, not every session. With the session's uid indexed alone, the planner joined that index to
   * the primary key's `model = 'Session'`, which walks every session at each token request.
   */
  test("the provider's token and session reads find their rows, not every session, before any statistics", async () => {
    const sessions = 20_000;
    await sql`alter table oidc_models set (autovacuum_enabled = false)`.execute(db);
    const far = Date.now() + 86_400_000;
    await sql`insert into oidc_models (model, id, payload, uid, expires_at)
      select 'Session', 'session' || i, '{}', 'uid' || i, ${far} from generate_series(1, ${sessions}) i`.execute(db);
    await sql`insert into oidc_models (model, id, payload, account_id, expires_at)
      select 'Grant', 'grant' || i, '{}', i::text, ${far} from generate_series(1, ${sessions}) i`.execute(db);
    await sql`insert into oidc_models (model, id, payload, grant_id, session_uid, expires_at)
      select 'AccessToken', 'token' || i, '{}', 'grant' || i, 'uid' || i, ${far} from generate_series(1, ${sessions}) i`.execute(
      db,
    );
    captured = [];
    const rows = await findTokenWithGrantAndSession(db, 'AccessToken', 'token777', Date.now());
    expect(rows.map((row) => row.id).sort()).toEqual(['grant777', 'session777', 'token777']);
    expect(await findModel(db, 'Session', { column: 'uid', value: 'uid777' }, Date.now())).toBeDefined();
    expect(captured).toHaveLength(2);

    const found: string[] = [];
    const client = await pool.connect();
    try {
      await client.query('set plan_cache_mode = force_generic_plan');
      for (const [i, statement] of captured.entries()) {
        await client.query(`prepare provider_read_${i} as ${statement.sql}`);
        const values = statement.parameters.map((value) => client.escapeLiteral(String(value))).join(', ');
        const { rows: plan } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (analyze, format json) execute provider_read_${i}(${values})`,
        );
        for (const read of readsOverAnswer(plan[0]!['QUERY PLAN'][0].Plan, 3)) found.push(`${read}: ${statement.sql}`);
      }
    } finally {
      await client.query('deallocate all');
      await client.query('reset plan_cache_mode');
      client.release();
    }
    expect(found).toEqual([]);
  });

  test('the check itself: a statement that can only scan is reported', async () => {
    const found = await wholeReadsOf(() =>
      db.selectFrom('users').select('id').where('password_hash', '=', 'x').execute(),
    );
    expect(found.join('\n')).toMatch(/Seq Scan on users/);
    const walked = await wholeReadsOf(() =>
      db.selectFrom('users').select('id').where('password_hash', '=', 'x').orderBy('id', 'desc').limit(5).execute(),
    );
    expect(walked.join('\n')).toMatch(/Seq Scan on users|Index Scan of all users_pkey/);
  });
});

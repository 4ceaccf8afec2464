import { type Kysely, sql } from 'kysely';
import { SEARCHED } from './043-lookups-by-index.ts';
import type { MigrationContext } from './index.ts';

/**
 * The console's search for a fragment inside a phone, e-mail address, username or nickname reads
 * PostgreSQL's trigram indexes (migration 043). Built on the columns themselves, they also answer `=`
 * and `IN`, and the planner took them for a list of values over the unique indexes, statistics or
 * not: the usernames of a roster's batch (`username_key IN` 400 values) took 1.2–2.2 s each where
 * the unique index answers in a millisecond, and a 25,000-pupil roster import spent 60 of its 68 s
 * there (bench/schools/roster.ts). They are built on `column || ''` instead, which only the fragment
 * search writes (store/admin/admin.ts `holds`); lookups of whole values keep their B-tree indexes.
 * Building the four anew takes minutes on millions of accounts, writes to users waiting (CHANGELOG).
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  if (dialect !== 'postgres') return;
  const trigrams = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
  for (const column of SEARCHED) {
    await sql`DROP INDEX IF EXISTS ${sql.id(`users_${column}_trigrams`)}`.execute(db);
    // Where the extension could not be created (043), the search scans for fragments, as before.
    if (trigrams.rows[0]?.n === 0) continue;
    await sql`CREATE INDEX ${sql.id(`users_${column}_fragments`)} ON users USING gin ((${sql.ref(column)} || '') gin_trgm_ops)`.execute(
      db,
    );
    await sql`CREATE STATISTICS ${sql.id(`users_${column}_fragments`)} ON (${sql.ref(column)} || '') FROM users`.execute(
      db,
    );
  }
};

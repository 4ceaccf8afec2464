import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import type { Store } from './db.ts';
import { migrationsFor } from './migrations/index.ts';
import type { Database } from './schema.ts';

/**
 * Runs `work` holding SQLite's write lock, all of it in one transaction. Kysely runs SQLite
 * migrations statement by statement with no lock (its adapter says SQLite has no transactional
 * DDL), so two processes starting on one new file both created the tables and one failed, and a
 * failing migration left the schema half built. `BEGIN IMMEDIATE` waits (busy_timeout) for another
 * process's run and then sees its result. The store has one SQLite connection, so the migrator's
 * statements run inside this transaction. PostgreSQL needs none of this: Kysely takes an advisory
 * lock and a transaction there.
 */
const inSqliteWriteLock = async <T>(store: Store, work: () => Promise<T>): Promise<T> => {
  if (store.dialect !== 'sqlite') return work();
  await sql`begin immediate`.execute(store.db);
  try {
    const result = await work();
    await sql`commit`.execute(store.db);
    return result;
  } catch (error) {
    await sql`rollback`.execute(store.db);
    throw error;
  }
};

/**
 * Brings the schema up to date, whole or not at all; throws with the failing migration's name (or
 * when the database ran a migration this version does not know). An up-to-date schema (every start
 * but the first after an upgrade) takes no write lock.
 */
export const migrate = async (
  store: Store,
  migrations: Record<string, Migration> = migrationsFor(store.dialect),
): Promise<string[]> => {
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
  const toLatest = async () => {
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error');
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
    }
    return (results ?? []).map((r) => r.migrationName);
  };
  const pending = (await migrator.getMigrations()).some((migration) => migration.executedAt === undefined);
  return pending ? inSqliteWriteLock(store, toLatest) : toLatest();
};

/** The names of the migrations this database has applied (the readiness check compares them). */
export const appliedMigrations = async (db: Kysely<Database>): Promise<Set<string>> =>
  new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name));

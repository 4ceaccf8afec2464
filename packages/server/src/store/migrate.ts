import { Migrator } from 'kysely';
import type { Store } from './db.ts';
import { migrationsFor } from './migrations/index.ts';

/** Brings the schema up to date; throws with the failing migration's name. */
export const migrate = async (store: Store): Promise<string[]> => {
  const migrations = migrationsFor(store.dialect);
  const migrator = new Migrator({ db: store.db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  return (results ?? []).map((r) => r.migrationName);
};

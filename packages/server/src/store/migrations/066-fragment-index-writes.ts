import { type Kysely, sql } from 'kysely';
import { SEARCHED } from './043-lookups-by-index.ts';
import type { MigrationContext } from './index.ts';

/**
 * The search's trigram indexes (migration 064) took new entries into a pending list, PostgreSQL's
 * default for GIN indexes (`fastupdate`), merged into the index only by a vacuum or once the list held
 * 4 MB. Every fragment search read the whole list besides the index: on a million accounts a search
 * that found no one read 1,064 pages in 11.9 ms, where the index alone reads 24 in 0.07 ms
 * (bench/scale, "user search: no match", 2.15× the small size's time); and autovacuum reaches a table
 * of millions only after hundreds of thousands of changes, so the list stays near full, and the write
 * that overflows it merges 4 MB in its own request. Each index now takes its entries as they are
 * written (a sign-up or a roster's pupils pay a few page reads each), and what was pending is merged.
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  if (dialect !== 'postgres') return;
  for (const column of SEARCHED) {
    const name = `users_${column}_fragments`;
    // Absent where pg_trgm could not be created (043): the search scans for fragments.
    const { rows } = await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(db);
    if (rows[0]?.found == null) continue;
    await sql`ALTER INDEX ${sql.id(name)} SET (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
  }
};

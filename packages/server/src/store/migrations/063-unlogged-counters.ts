import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * On PostgreSQL the rate limits' counters (store/counters.ts: code sends, sign-in failures and locks,
 * wrong client secrets) are an UNLOGGED table: writing one writes no WAL, so a commit that wrote only
 * counters does not wait for the WAL to reach the disk. A password sign-in of an instance without
 * Redis took its lock's place and gave it back in two such commits, 7 WAL syncs in all where 5 were
 * the sign-in's own; under a flood of wrong passwords every failure counted was one more sync.
 *
 * What this gives up is what Redis, where several instances keep these counters, gives up already
 * (deploy/compose.yaml runs it without persistence): after PostgreSQL crashes, or a standby is
 * promoted, the counts start again from zero. A clean restart keeps them. A `pg_dump` holds them; a
 * base backup and a streaming replica do not (no query reads them there).
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  if (dialect === 'postgres') await sql`ALTER TABLE counters SET UNLOGGED`.execute(db);
};

import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/** PostgreSQL `serial` ids (and their sequences), which stop at 2^31 − 1. */
const SERIAL_IDS = ['users', 'agreements', 'user_oauths', 'outbox', 'monitor_beacons', 'admin_audit'];

/** Columns holding one of those ids. */
const ID_REFERENCES: [table: string, column: string][] = [
  ['sessions', 'user_id'],
  ['agreement_signatures', 'user_id'],
  ['agreement_signatures', 'agreement_id'],
  ['user_oauths', 'user_id'],
  ['admin_audit', 'operator_id'],
];

/**
 * 64-bit ids on PostgreSQL: a `serial` id stops at 2^31 − 1, about two months of monitor beacons at
 * a billion a month, after which every insert fails. Each column is retyped and each sequence
 * widened (a sequence created by `serial` is itself `as integer`). Retyping rewrites the table under
 * an exclusive lock: on a large installation run `edupass migrate` in a maintenance window.
 * SQLite's INTEGER ids are 64-bit already.
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  if (dialect !== 'postgres') return;
  for (const table of SERIAL_IDS) {
    await sql`alter table ${sql.table(table)} alter column id type bigint`.execute(db);
    await sql`alter sequence ${sql.raw(`${table}_id_seq`)} as bigint`.execute(db);
  }
  for (const [table, column] of ID_REFERENCES) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
  }
};

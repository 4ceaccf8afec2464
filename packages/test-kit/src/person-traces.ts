/**
 * What is left of a person in the accounts database, found by scanning every table the live schema
 * has (not a list written by hand): a column that holds people's ids equal to theirs, or any text
 * holding their phone, e-mail, `user:<id>` or a webhook payload about them. What the erasure map
 * (store/account/erasure.ts) says is kept on purpose is not counted: a `kept` table, a column a rule
 * `keeps`, and the `user.deleted` notice itself.
 */
import { type Kysely, sql } from 'kysely';
import { TABLE_RULES } from '../../server/src/store/account/erasure.ts';
import type { Database } from '../../server/src/store/schema.ts';
import { recordSealerOf } from '../../server/src/store/sealed-records.ts';

/** Columns that hold a person's id (as a number or as text). */
const ID_COLUMNS = new Set([
  'user_id',
  'subject_id',
  'reader_id',
  'account_id',
  'operator_id',
  'created_by',
  'visitor',
  'child_id',
  'guardian_id',
]);

/** Every table of the database, from its catalogue. */
export const liveTables = async (db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<string[]> => {
  const rows =
    dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.rows.map((row) => row.name).sort();
};

export interface Person {
  id: number;
  phone: string | null;
  email: string | null;
}

const keptColumns = (table: string): Set<string> => {
  const rule = TABLE_RULES[table];
  return new Set(rule && 'erase' in rule ? Object.keys(rule.keeps ?? {}) : []);
};

/** Table → the number of rows naming the person (tables without any left out). */
export const rowsNaming = async (
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  person: Person,
): Promise<Record<string, number>> => {
  // The phone and address, and their blind indexes (what the one-time codes are kept under).
  const sealer = recordSealerOf(db);
  const texts = [
    ...[person.phone, person.email],
    ...(sealer === undefined
      ? []
      : [person.phone && sealer.index('phone', person.phone), person.email && sealer.index('email', person.email)]),
  ].filter((t): t is string => typeof t === 'string' && t !== '');
  const patterns = [new RegExp(`user:${person.id}(?![0-9])`), new RegExp(`"user_id":"?${person.id}[",}]`)];
  const found: Record<string, number> = {};
  for (const table of await liveTables(db, dialect)) {
    const rule = TABLE_RULES[table];
    if (rule !== undefined && 'kept' in rule) continue;
    const kept = keptColumns(table);
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    const naming = rows.filter((row) => {
      if (table === 'webhook_events' && row.type === 'user.deleted') return false;
      return Object.entries(row).some(([column, value]) => {
        if (kept.has(column) || value === null || value === undefined) return false;
        const text = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
        if ((ID_COLUMNS.has(column) || (table === 'users' && column === 'id')) && text === String(person.id))
          return true;
        if (typeof value !== 'string') return false;
        return texts.some((t) => value.toLowerCase().includes(t.toLowerCase())) || patterns.some((p) => p.test(value));
      });
    });
    if (naming.length > 0) found[table] = naming.length;
  }
  return found;
};

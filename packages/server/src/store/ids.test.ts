/**
 * Ids are 64-bit on PostgreSQL (SQLite's INTEGER is already): past 2^31 − 1 a beacon is still
 * stored, and no integer column is left holding or referencing an id.
 */

import { testDatabaseKind } from '@edupass/test-kit/databases';
import { useTestServer } from '@edupass/test-kit/harness';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usageDb } from './usage/events.ts';

const { server } = useTestServer();

describe.runIf(testDatabaseKind() === 'postgres')('64-bit ids on PostgreSQL', () => {
  it('every primary-key and foreign-key column that holds an id is bigint, and so is every sequence', async () => {
    const db = server.app.ctx.db;
    const keyColumns = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select c.table_name, c.column_name, c.data_type
      from information_schema.key_column_usage k
      join information_schema.table_constraints t on t.constraint_name = k.constraint_name and t.table_schema = k.table_schema
      join information_schema.columns c on c.table_schema = k.table_schema and c.table_name = k.table_name and c.column_name = k.column_name
      where k.table_schema = 'public' and t.constraint_type in ('PRIMARY KEY', 'FOREIGN KEY')
        and c.data_type in ('integer', 'smallint', 'bigint')`.execute(db);
    expect(keyColumns.rows.length).toBeGreaterThanOrEqual(11);
    expect(keyColumns.rows.filter((row) => row.data_type !== 'bigint')).toEqual([]);
    const sequences = await sql<{ sequencename: string; data_type: string }>`
      select sequencename, data_type::text from pg_sequences where schemaname = 'public'`.execute(db);
    expect(sequences.rows.length).toBeGreaterThanOrEqual(6);
    expect(sequences.rows.filter((row) => row.data_type !== 'bigint')).toEqual([]);
  });

  it('a monitor beacon past 2^31 − 1 is stored', async () => {
    const db = usageDb(server.app.ctx.db);
    await sql`select setval('monitor_beacons_id_seq', 2147483647)`.execute(db);
    const response = await fetch(`${server.url}/monitor/beacon?k=error&p=edupass&pg=%2F&t=1&n=past-int32`);
    expect(response.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await db.selectFrom('monitor_beacons').select('id').where('name', '=', 'past-int32').executeTakeFirst())?.id,
      )
      .toBeGreaterThan(2 ** 31 - 1);
  });
});

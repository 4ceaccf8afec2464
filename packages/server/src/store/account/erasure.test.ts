/**
 * The erasure map covers the schema: every table the migrations make (read from the live database's
 * catalogue, on SQLite and PostgreSQL) has its rule in store/account/erasure.ts, and the map names no
 * table that does not exist. A table added without saying what it holds of a person fails here. So
 * does the export map (store/account/export-map.ts): every table the erasure map does not call `none`
 * (it refers to a person) says where it goes in a person's copy of their data, or why it is left out.
 */
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { liveTables } from '@edupass/test-kit/person-traces';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../db.ts';
import { TABLE_RULES } from './erasure.ts';
import { EXPORT_RULES } from './export-map.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase({ migrated: true });
  store = openStore(database.url);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

describe('the erasure map', () => {
  test('has a rule for every table of the schema, and none for a table that is not there', async () => {
    const tables = await liveTables(store.db, store.dialect);
    expect(tables.length).toBeGreaterThan(30);
    const mapped = Object.keys(TABLE_RULES).sort();
    expect(
      tables.filter((table) => !mapped.includes(table)),
      'tables without a rule',
    ).toEqual([]);
    expect(
      mapped.filter((table) => !tables.includes(table)),
      'rules for no table',
    ).toEqual([]);
  });
});

describe('the export map', () => {
  test('has a rule for every table that refers to a person, and none for a table that is not there', async () => {
    const tables = await liveTables(store.db, store.dialect);
    const naming = tables.filter((table) => {
      const rule = TABLE_RULES[table];
      return rule === undefined || !('none' in rule);
    });
    expect(naming).toEqual(expect.arrayContaining(['users', 'sessions', 'usage_events', 'data_exports']));
    const mapped = Object.keys(EXPORT_RULES);
    expect(
      naming.filter((table) => !mapped.includes(table)),
      'tables referring to a person without an export rule',
    ).toEqual([]);
    expect(
      mapped.filter((table) => !naming.includes(table)),
      'export rules for no table (or for one holding nothing of anyone)',
    ).toEqual([]);
  });
});

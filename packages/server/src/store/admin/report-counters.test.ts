/**
 * The counters' first fill (migration 044): the months before the upgrade are counted from the rows
 * then present — accounts by band, consent decisions, reads by role, people read once a year, approvals
 * — and the yearly report sums them; what was erased before the upgrade is not in them.
 */
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { yearlyReport } from '../../services/admin/yearly-report.ts';
import { openStore, type Store } from '../db.ts';
import { migrate } from '../migrate.ts';
import { migrationsFor } from '../migrations/index.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = openStore(database.url);
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

/** A time in 2025, China time (UTC+8). */
const at = (month: number, day: number) => Date.UTC(2025, month - 1, day) - 8 * 3_600_000;

describe('the counters of the months before the upgrade', () => {
  test('are filled from the rows present, and the yearly report sums them', async () => {
    const all = migrationsFor(store.dialect);
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '044'));
    await migrate(store, before);
    const { db } = store;
    const user = (id: number, band: '8_13' | 'adult' | null, created: number) => ({
      id,
      pid: 'edu',
      username: `u${id}`,
      username_key: `u${id}`,
      nickname: `n${id}`,
      password_hash: '',
      description: '',
      avatar_url: '',
      fullname: '',
      qq: '',
      weak_password: 0,
      role: 'user',
      age_band: band,
      created_at: created,
      updated_at: created,
    });
    // 31 December 2024 at 23:00 China time is 2024's; 1 January 2025 at 00:00 is 2025's.
    await db
      .insertInto('users')
      .values([
        user(1, '8_13', at(1, 1)),
        user(2, '8_13', at(1, 1) - 3_600_000),
        user(3, 'adult', at(2, 3)),
        user(4, null, at(3, 1)),
      ])
      .execute();
    const read = (subject: number, role: string, when: number, reason: string | null = null) => ({
      reader_id: 3,
      reader_role: role,
      subject_id: subject,
      fields: 'name',
      purpose: 'class_detail',
      reason,
      created_at: when,
    });
    await db
      .insertInto('edu_access_log')
      .values([read(1, 'teacher', at(3, 2)), read(1, 'teacher', at(4, 2)), read(2, 'operator', at(5, 2), '核实')])
      .execute();
    await db
      .insertInto('guardian_consents')
      .values({
        child_id: 1,
        guardian_id: 3,
        method: 'sms',
        text_version: 1,
        scopes: 'x',
        decision: 'granted',
        created_at: at(1, 2),
      })
      .execute();
    await db
      .insertInto('staff_access_approvals')
      .values({
        requested_by: 3,
        subject_id: 2,
        reason: '核实',
        status: 'approved',
        decided_by: 4,
        decided_at: at(5, 1),
        created_at: at(4, 30),
      })
      .execute();
    await migrate(store, all);

    const report = await yearlyReport({ readDb: db }, 2025);
    expect(report.minors).toEqual({
      accounts_at_year_end: { '8_13': 2 },
      opened: 1,
      children_opened: 1,
      erased: 0,
      children_erased: 0,
    });
    expect(report.consents).toEqual({ granted: 1, refused: 0, withdrawn: 0 });
    expect(report.staff_accesses).toEqual({
      reads: { operator: 1, teacher: 2 },
      operator_reads_of_minors: 1,
      people_read: 2,
      children_read: 2,
      approvals: { requested: 1, approved: 1, refused: 0 },
    });
    expect((await yearlyReport({ readDb: db }, 2024)).minors).toEqual({
      accounts_at_year_end: { '8_13': 1 },
      opened: 1,
      children_opened: 1,
      erased: 0,
      children_erased: 0,
    });
    expect(
      await db.selectFrom('report_people_read').select(['subject_id', 'year']).orderBy('subject_id').execute(),
    ).toEqual([
      { subject_id: expect.anything(), year: 2025 },
      { subject_id: expect.anything(), year: 2025 },
    ]);
  });
});

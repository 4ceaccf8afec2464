/** Guardian consents (records, never updated) and guardian links to children (migration 023). */
import type { ConsentState } from '@edupass/protocol';
import type { Insertable, Kysely } from 'kysely';
import { addCounts, countMoved } from '../../admin/report-counters.ts';
import type { Database, User } from '../../schema.ts';
import { sealAccount, storedUserValues } from '../../sealed-records.ts';
import type { GuardianConsentsTable } from '../edu-schema.ts';

type Db = Kysely<Database>;

/** A consent record, in `db`'s transaction with its count (the yearly report's consents, by decision). */
export const insertConsentRecord = async (db: Db, row: Insertable<GuardianConsentsTable>) => {
  await db.insertInto('guardian_consents').values(row).execute();
  await addCounts(db, [{ figure: 'consents', key: row.decision, at: row.created_at }]);
};

/** The child's account was erased: its consent records are kept as evidence from now, for their retention. */
export const markConsentEvidenceEnded = (db: Db, childId: number, at: number) =>
  db
    .updateTable('guardian_consents')
    .set({ account_ended_at: at })
    .where('child_id', '=', childId)
    .where('account_ended_at', 'is', null)
    .execute();

/** Moves the child's consent state from one of `from` to `to`; false when another request moved it first. */
export const moveConsentState = async (
  db: Db,
  childId: number,
  from: readonly ConsentState[],
  to: ConsentState,
  extra: { blocked_at?: number; updated_at: number },
): Promise<boolean> => {
  const result = await db
    .updateTable('users')
    .set({ consent_state: to, ...extra })
    .where('id', '=', childId)
    .where('consent_state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Links a guardian to a child (a second link of the same pair keeps the first relation). */
export const linkGuardian = (
  db: Db,
  row: { child_id: number; guardian_id: number; relation: string; created_at: number; export_from: number | null },
) =>
  db
    .insertInto('guardians')
    .values(row)
    .onConflict((oc) => oc.columns(['child_id', 'guardian_id']).doNothing())
    .execute()
    .then(() => {});

/** The pair's link, if any (from when the guardian may take a copy of the child's data). */
export const guardianRow = (db: Db, guardianId: number, childId: number) =>
  db
    .selectFrom('guardians')
    .select(['relation', 'created_at', 'export_from'])
    .where('guardian_id', '=', guardianId)
    .where('child_id', '=', childId)
    .executeTakeFirst();

/** The guardians linked to each of these children, with their phone and e-mail (for notices). */
export const guardianContactsOf = (db: Db, childId: number) =>
  db
    .selectFrom('guardians')
    .innerJoin('users', 'users.id', 'guardians.guardian_id')
    .select(['users.id', 'users.phone', 'users.email'])
    .where('guardians.child_id', '=', childId)
    .execute();

/** The guardian may take a copy of the child's data from now on (they gave the consent). */
export const allowExportNow = (db: Db, guardianId: number, childId: number) =>
  db
    .updateTable('guardians')
    .set({ export_from: null })
    .where('guardian_id', '=', guardianId)
    .where('child_id', '=', childId)
    .execute();

/**
 * Sets the age of an account that has none yet, in `db`'s transaction (the band's move counted);
 * false when it has one (set once, also under races).
 */
export const setAgeOnce = async (
  db: Db,
  userId: number,
  columns: Pick<User, 'age_band' | 'birth_year_month' | 'consent_state'>,
  at: number,
) => {
  const set =
    Number(
      (
        await db
          .updateTable('users')
          .set({ ...storedUserValues(db, columns, columns.age_band), updated_at: at })
          .where('id', '=', userId)
          .where('birth_year_month', 'is', null)
          .where('age_band', 'is', null)
          .executeTakeFirst()
      ).numUpdatedRows,
    ) === 1;
  if (set) await Promise.all([countMoved(db, null, columns.age_band, at), sealAccount(db, userId)]);
  return set;
};

/**
 * A school-managed pupil's band and consent after the class's grade changed: only an account whose
 * age is not its own answer (no year and month of birth), and only from the consent state read (a
 * guardian's decision made meanwhile is not overwritten). In `db`'s transaction, the move from the band
 * read counted (the class's row, updated first, keeps a second grade change waiting). Whether it was changed.
 */
export const moveGradeBand = async (
  db: Db,
  userId: number,
  from: Pick<User, 'age_band' | 'consent_state'>,
  to: Pick<User, 'age_band' | 'consent_state'> & { consent_pending_since?: number | null },
  at: number,
) => {
  const moved =
    Number(
      (
        await db
          .updateTable('users')
          .set({ ...to, updated_at: at })
          .where('id', '=', userId)
          .where('birth_year_month', 'is', null)
          .where((eb) =>
            from.consent_state === null
              ? eb('consent_state', 'is', null)
              : eb('consent_state', '=', from.consent_state),
          )
          .executeTakeFirst()
      ).numUpdatedRows,
    ) === 1;
  if (moved) await Promise.all([countMoved(db, from.age_band, to.age_band, at), sealAccount(db, userId)]);
  return moved;
};

export const isGuardianRow = async (db: Db, guardianId: number, childId: number) =>
  (await db
    .selectFrom('guardians')
    .select('child_id')
    .where('guardian_id', '=', guardianId)
    .where('child_id', '=', childId)
    .executeTakeFirst()) !== undefined;

/** The guardian's children with what the guardian's area shows of them. */
export const childrenOfGuardian = (db: Db, guardianId: number) =>
  db
    .selectFrom('guardians')
    .innerJoin('users', 'users.id', 'guardians.child_id')
    .leftJoin('pupil_accounts', 'pupil_accounts.user_id', 'guardians.child_id')
    .select([
      'users.id',
      'users.nickname',
      'pupil_accounts.display_name as pupil_name',
      'users.fullname',
      'users.age_band',
      'users.birth_year_month',
      'users.consent_state',
      'users.blocked_at',
      'guardians.relation',
    ])
    .where('guardians.guardian_id', '=', guardianId)
    .orderBy('guardians.created_at')
    .execute();

/** Whether the child's latest consent given was given after the guardian's real-name adult check. */
export const latestConsentChecked = async (db: Db, childId: number) =>
  (
    await db
      .selectFrom('guardian_consents')
      .select('adult_check_vendor')
      .where('child_id', '=', childId)
      .where('decision', '=', 'granted')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
  )?.adult_check_vendor != null;

export const consentRecordsOf = (db: Db, childId: number) =>
  db.selectFrom('guardian_consents').selectAll().where('child_id', '=', childId).orderBy('id').execute();

/** Accounts still waiting for a guardian's consent that were created before `before`, oldest first. */
export const pendingConsentBefore = (db: Db, before: number, limit: number) =>
  db
    .selectFrom('users')
    .select(['id', 'phone', 'email'])
    .where('consent_state', '=', 'pending')
    .where((eb) => eb(eb.fn.coalesce('consent_pending_since', 'created_at'), '<', before))
    .orderBy('created_at')
    .limit(limit)
    .execute();

/** A deleted child's links (the consent records stay: they are the proof of what was decided). */
export const deleteGuardianLinks = (db: Db, userId: number) =>
  db
    .deleteFrom('guardians')
    .where((eb) => eb.or([eb('child_id', '=', userId), eb('guardian_id', '=', userId)]))
    .execute();

/** The guardians linked to a child, with what the child's account centre shows of them. */
export const guardiansOfChild = (db: Db, childId: number) =>
  db
    .selectFrom('guardians')
    .innerJoin('users', 'users.id', 'guardians.guardian_id')
    .select(['users.id', 'users.nickname', 'users.fullname', 'guardians.relation', 'guardians.created_at'])
    .where('guardians.child_id', '=', childId)
    .orderBy('guardians.created_at')
    .execute();

/** Removes one guardian's link to a child; false when there was none. */
export const unlinkGuardianRow = async (db: Db, guardianId: number, childId: number) =>
  Number(
    (
      await db
        .deleteFrom('guardians')
        .where('guardian_id', '=', guardianId)
        .where('child_id', '=', childId)
        .executeTakeFirst()
    ).numDeletedRows,
  ) === 1;

/** Whether any guardian is linked to the child. */
export const hasGuardianRow = async (db: Db, childId: number) =>
  (await db.selectFrom('guardians').select('guardian_id').where('child_id', '=', childId).executeTakeFirst()) !==
  undefined;

/** Guardians' adult checks and schools' agreements (migration 033). */
import type { Insertable, Kysely, Selectable } from 'kysely';
import { compiledOnce } from '../../compiled-query.ts';
import type { Database } from '../../schema.ts';
import type { GuardianAdultChecksTable, SchoolAgreementsTable } from '../edu-schema.ts';

type Db = Kysely<Database>;

export const insertAdultCheck = (db: Db, row: Insertable<GuardianAdultChecksTable>) =>
  db.insertInto('guardian_adult_checks').values(row).returningAll().executeTakeFirstOrThrow();

/** The person's newest check, if any. */
export const lastAdultCheck = (db: Db, userId: number) =>
  db
    .selectFrom('guardian_adult_checks')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const insertSchoolAgreement = (db: Db, row: Insertable<SchoolAgreementsTable>) =>
  db.insertInto('school_agreements').values(row).returningAll().executeTakeFirstOrThrow();

export const schoolAgreements = (db: Db, schoolId: number) =>
  db
    .selectFrom('school_agreements')
    .selectAll()
    .where('school_id', '=', schoolId)
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The school's agreement in force: the newest not ended. */
export const agreementInForce = (db: Db, schoolId: number) =>
  db
    .selectFrom('school_agreements')
    .selectAll()
    .where('school_id', '=', schoolId)
    .where('ended_at', 'is', null)
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

// Every sign-in of a pupil a school made asks it (the card's among them): compiled once. Its answer is
// the school's agreements not ended, one or none as schools record them (no limit to bind).
const schoolAgreementOfPupil = compiledOnce(
  (db, userId: number) =>
    db
      .selectFrom('pupil_accounts')
      .innerJoin('school_agreements', 'school_agreements.school_id', 'pupil_accounts.school_id')
      .select('school_agreements.id')
      .where('pupil_accounts.user_id', '=', userId)
      .where('school_agreements.ended_at', 'is', null),
  [0],
);

/** Whether the school that made this pupil's account has an agreement in force: one statement. */
export const pupilsSchoolHasAgreement = async (db: Db, userId: number) =>
  (await schoolAgreementOfPupil(db, userId)).rows.length > 0;

/** The agreement in force of each of these schools that has one, by school id. */
export const agreementsInForce = async (db: Db, schoolIds: number[]) => {
  if (schoolIds.length === 0) return new Map<number, Selectable<SchoolAgreementsTable>>();
  const rows = await db
    .selectFrom('school_agreements')
    .selectAll()
    .where('school_id', 'in', schoolIds)
    .where('ended_at', 'is', null)
    .orderBy('recorded_at')
    .orderBy('id')
    .execute();
  return new Map(rows.map((row) => [Number(row.school_id), row]));
};

/** Ends every agreement of the school still in force; answers how many. */
export const endSchoolAgreements = async (db: Db, schoolId: number, at: number) =>
  Number(
    (
      await db
        .updateTable('school_agreements')
        .set({ ended_at: at })
        .where('school_id', '=', schoolId)
        .where('ended_at', 'is', null)
        .executeTakeFirst()
    ).numUpdatedRows,
  );

/**
 * What a sign-in asks of an account before it starts a session, in one statement (every sign-in asks):
 * its second factors — a confirmed authenticator app (0 or 1), passkeys, unused recovery codes — and
 * whether it is school staff — an approved school admin or teacher, or a teacher of a class (the staff
 * identity controls, services/passwords/staff-policy.ts). Each part reads its table's user index. A
 * card's sign-in reads them with the card's account (store/edu/school/pupils.ts), a password sign-in
 * with the account its identity names (users.ts `findUserAndStandingByIdentity`).
 */
import { type Expression, expressionBuilder } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import type { Database } from '../schema.ts';

/** The user each part asks about: a value, or a column of the query the parts are selected in. */
type UserOperand = number | Expression<number>;

/**
 * The standing's parts as columns, in the order their values bind: the user once per part, and the
 * school's words ('approved', 1, 'head_teacher', 'teacher', 1) where the parts use them.
 */
export const standingColumns = (
  [totpUser, passkeyUser, codeUser, memberUser, classUser]: [
    UserOperand,
    UserOperand,
    UserOperand,
    UserOperand,
    UserOperand,
  ],
  approved: 'approved',
  one: number,
  headTeacher: 'head_teacher',
  teacher: 'teacher',
  alsoOne: number,
) => {
  const eb = expressionBuilder<Database, never>();
  return [
    eb
      .selectFrom('totp_secrets')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', totpUser)
      .where('confirmed_at', 'is not', null)
      .as('totp'),
    eb
      .selectFrom('passkeys')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', passkeyUser)
      .as('passkeys'),
    eb
      .selectFrom('recovery_codes')
      .select(eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', codeUser)
      .where('used_at', 'is', null)
      .as('recoveryCodes'),
    eb
      .selectFrom('school_members')
      .select('user_id')
      .where('user_id', '=', memberUser)
      .where('status', '=', approved)
      .limit(one)
      .as('school'),
    eb
      .selectFrom('class_members')
      .select('user_id')
      .where('user_id', '=', classUser)
      .where('role', 'in', [headTeacher, teacher])
      .limit(alsoOne)
      .as('teaching'),
  ];
};

/** The values standingColumns' words bind to. */
export const STANDING_WORDS: StandingWords = ['approved', 1, 'head_teacher', 'teacher', 1];
export type StandingWords = [
  approved: 'approved',
  one: number,
  headTeacher: 'head_teacher',
  teacher: 'teacher',
  alsoOne: number,
];

const standingQuery = compiledOnce(
  (
    db,
    totpUser: number,
    passkeyUser: number,
    codeUser: number,
    memberUser: number,
    approved: 'approved',
    one: number,
    classUser: number,
    headTeacher: 'head_teacher',
    teacher: 'teacher',
    alsoOne: number,
  ) =>
    db.selectNoFrom(() =>
      standingColumns(
        [totpUser, passkeyUser, codeUser, memberUser, classUser],
        approved,
        one,
        headTeacher,
        teacher,
        alsoOne,
      ),
    ),
  [0, 0, 0, 0, 'approved', 0, 0, 'head_teacher', 'teacher', 0],
);

export interface AccountStanding {
  totp: number;
  passkeys: number;
  recoveryCodes: number;
  schoolStaff: boolean;
}

/** The columns standingColumns selects, as a row holds them. */
export interface StandingRow {
  totp?: unknown;
  passkeys?: unknown;
  recoveryCodes?: unknown;
  school?: unknown;
  teaching?: unknown;
}

/** The standing from the columns standingColumns selected. */
export const standingOf = (row: StandingRow): AccountStanding => ({
  totp: Number(row.totp ?? 0),
  passkeys: Number(row.passkeys ?? 0),
  recoveryCodes: Number(row.recoveryCodes ?? 0),
  schoolStaff: (row.school ?? null) !== null || (row.teaching ?? null) !== null,
});

export const accountStanding = async (
  db: Parameters<typeof standingQuery>[0],
  userId: number,
): Promise<AccountStanding> => {
  const [approved, one, headTeacher, teacher, alsoOne] = STANDING_WORDS;
  const row = (
    await standingQuery(db, userId, userId, userId, userId, approved, one, userId, headTeacher, teacher, alsoOne)
  ).rows[0];
  return standingOf(row ?? {});
};

/** A row that selected standingColumns beside another table's columns: that row, and the standing. */
export const splitStanding = <Row extends StandingRow>({
  totp,
  passkeys,
  recoveryCodes,
  school,
  teaching,
  ...rest
}: Row) => ({
  row: rest,
  standing: standingOf({ totp, passkeys, recoveryCodes, school, teaching }),
});

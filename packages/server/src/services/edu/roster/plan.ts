/**
 * What confirming a roster would do, worked out against the database without changing it: schools
 * created or matched (a school already linked to the roster's id, the school named with `--school`
 * for a one-school file, else a school of exactly that name), classes, pupil accounts created,
 * teachers matched to their own accounts (by phone, else e-mail: a teacher must be reachable, so
 * the import never makes a teacher account), names changed, memberships added and ended, and rows
 * refused. A bulk file removes what the roster linked before in the schools it names and now leaves
 * out; a delta file removes its `tobedeleted` rows. Comparing with the links is what makes a
 * re-import of the same files change nothing.
 *
 * The plan is made in named steps, each in its own module, each reading what the one before left:
 * the schools first (which existing school each org is), then the classes (a class belongs to a
 * school), then the people (a new pupil's grade and school come from their class), then the
 * memberships (a membership joins a class and a person as the file leaves them), then the holds.
 * Each step adds its part of the plan and its refused rows, in that order.
 */
import type { Context } from '../../../context.ts';
import type { Cause, Refusal, RefusalReason, Roster, RosterRole, Subject, Where } from './model.ts';
import { resolveClasses } from './plan-classes.ts';
import { planGuardians } from './plan-guardians.ts';
import { holdLargeRemovals } from './plan-holds.ts';
import { diffMemberships } from './plan-memberships.ts';
import { resolvePeople } from './plan-people.ts';
import { resolveSchools } from './plan-schools.ts';

export const planRoster = async (ctx: Context, roster: Roster, options: PlanOptions): Promise<Plan> => {
  const planning = startPlanning(ctx, roster);
  const schools = await resolveSchools(planning, options.schoolId);
  const classes = await resolveClasses(planning, schools);
  const people = await resolvePeople(planning, schools, classes);
  await diffMemberships(planning, schools, classes, people);
  await planGuardians(planning, schools, people);
  await holdLargeRemovals(planning, schools, options.holdPercent);
  return planning.plan;
};

export interface ClassFields {
  title: string;
  grade: number;
  schoolYear: string;
}

export type EnrollmentRole = 'pupil' | 'teacher' | 'head_teacher';

export interface Plan {
  newSchools: { ref: string; name: string }[];
  linkSchools: { ref: string; schoolId: number; name: string }[];
  renameSchools: { schoolId: number; from: string; to: string }[];
  /** `gradeAssumed`: the file gives the class no grade (plan-classes.ts says which it takes). */
  newClasses: ({ ref: string; orgRef: string; gradeAssumed?: true } & ClassFields)[];
  changeClasses: ({
    ref: string;
    classId: number;
    schoolId: number;
    from: ClassFields & { archived: boolean };
  } & ClassFields)[];
  removeClasses: { ref: string; classId: number; schoolId: number; title: string }[];
  /** Classes of the school made by hand whose name and year a new class of the file gives: that class. */
  linkClasses: ({ ref: string; classId: number; schoolId: number } & ClassFields)[];
  newPupils: { ref: string; orgRef: string; name: string; grade: number }[];
  linkTeachers: { ref: string; orgRef: string; userId: number; name: string }[];
  /** People the roster had not linked whose account the school keys already (plan-keys.ts). */
  linkPeople: { ref: string; schoolId: number; userId: number; name: string; role: RosterRole }[];
  /** The school's keys to write (a school id, or the ref of an org made now; the account when known). */
  keys: { ref: string; school: number | string; idHash: string; userId?: number }[];
  renameUsers: { ref: string; userId: number; from: string; to: string }[];
  restoreUsers: { ref: string; userId: number; schoolId: number }[];
  removeUsers: { ref: string; userId: number; schoolId: number; name: string }[];
  newEnrollments: { ref: string; classRef: string; userRef: string; role: EnrollmentRole }[];
  changeEnrollments: {
    ref: string;
    classRef: string;
    userRef: string;
    role: EnrollmentRole;
    from: { classId: number; userId: number };
  }[];
  removeEnrollments: { ref: string; classId: number; userId: number }[];
  /** Address books: guardians to confirm (`phone` null when the book gives none), changed, no longer listed. */
  newInvites: { ref: string; childRef: string; orgRef: string; relation: string; phone: string | null }[];
  changeInvites: { ref: string; relation: string; phone: string | null }[];
  removeInvites: string[];
  refused: Refusal[];
  holds: { schoolId: number; name: string; removed: number; listed: number; percent: number }[];
}

export interface PlanOptions {
  /** The school named for a one-school file (`--school`, the console's school). */
  schoolId: number | undefined;
  /** A school losing more than this share of its listed people holds the import. */
  holdPercent: number;
}

/** What every step is given: the database, the roster, and the plan it adds to. */
export interface Planning {
  ctx: Context;
  roster: Roster;
  plan: Plan;
  /** The column a refusal names: the template's header, or OneRoster's. */
  column: (template: string, oneroster: string) => string;
  refuse: (at: Where, column: string, reason: RefusalReason, about?: { subject?: Subject; cause?: Cause }) => void;
  /**
   * The refused row a class, person or school of the file is, when it was refused (by the reader or an
   * earlier step): what a row naming it was refused for, rather than "not in the file".
   */
  causeOf: (ref: string) => Cause | undefined;
}

/** An empty plan that starts with the rows the reader refused. */
const startPlanning = (ctx: Context, roster: Roster): Planning => {
  const plan: Plan = {
    newSchools: [],
    linkSchools: [],
    renameSchools: [],
    newClasses: [],
    changeClasses: [],
    removeClasses: [],
    linkClasses: [],
    newPupils: [],
    linkTeachers: [],
    linkPeople: [],
    keys: [],
    renameUsers: [],
    restoreUsers: [],
    removeUsers: [],
    newEnrollments: [],
    changeEnrollments: [],
    removeEnrollments: [],
    newInvites: [],
    changeInvites: [],
    removeInvites: [],
    refused: [...roster.refused],
    holds: [],
  };
  const causes = new Map<string, Cause>();
  const remember = (refusal: Refusal) => {
    const { subject } = refusal;
    if (subject && !causes.has(subject.ref)) {
      const { file, line, column, reason } = refusal;
      causes.set(subject.ref, { kind: subject.kind, name: subject.name, file, line, column, reason });
    }
  };
  for (const refusal of roster.refused) remember(refusal);
  return {
    ctx,
    roster,
    plan,
    column: (template, oneroster) => (roster.format === 'template' ? template : oneroster),
    refuse: (at, column, reason, about = {}) => {
      const refusal: Refusal = { file: at.file, line: at.line, column, reason, ...about };
      plan.refused.push(refusal);
      remember(refusal);
    },
    causeOf: (ref) => causes.get(ref),
  };
};

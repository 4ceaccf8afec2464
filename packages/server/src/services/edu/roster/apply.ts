/**
 * Confirming a roster: the plan (plan.ts) carried out in one transaction, in batches (a few hundred
 * rows a statement, never a round trip per row for pupils, links or memberships), so a 50,000-row
 * file takes seconds and a failure leaves nothing half-made. Pupil accounts follow the model of
 * teacher-created pupils: a school username, a sealed initial password for the card sheet, no phone,
 * the age band of the class's grade and, under 14, the school's agreement standing for consent where
 * one is in force (school-agreements.ts); without one the pupil waits for a guardian.
 *
 * The plan is carried out in named steps, in the order the plan was made: schools, then classes (a
 * class needs its school's id), then pupils, teachers and the other changes to people, then the
 * memberships (a membership needs the ids of its class and person). Each step records the ids it
 * makes in the run, where the later steps find them.
 */
import type { Insertable } from 'kysely';
import type { Context } from '../../../context.ts';
import { fail } from '../../../errors.ts';
import { findLink } from '../../../store/edu/roster/roster.ts';
import type { RosterLinksTable } from '../../../store/edu/roster/roster-schema.ts';
import { defaultPid } from '../../sessions/access-tokens.ts';
import { applyGuardians } from './apply-guardians.ts';
import { applyMemberships } from './apply-memberships.ts';
import { applyPeopleChanges, createPupils, keyPeople, linkKeyedPeople, linkTeachers } from './apply-people.ts';
import { applyClasses, applySchools } from './apply-schools.ts';
import type { RefKind } from './model.ts';
import type { Plan } from './plan.ts';

/** Runs the plan inside `tx` (a transaction); `operatorId` is recorded as the pupils' creator (0 from the CLI). */
export const applyPlan = async (
  tx: Context,
  plan: Plan,
  operatorId: number,
  progress?: (done: number, total: number) => void,
): Promise<Applied> => {
  const run = startRun(tx, plan, operatorId, progress);
  await applySchools(run);
  await applyClasses(run);
  await createPupils(run);
  await linkTeachers(run);
  await linkKeyedPeople(run);
  await keyPeople(run);
  await applyPeopleChanges(run);
  await applyMemberships(run);
  await applyGuardians(run);
  return {
    schools: plan.newSchools.length,
    classes: plan.newClasses.length,
    pupils: plan.newPupils.length,
    teachers: plan.linkTeachers.length,
    memberships: plan.newEnrollments.length,
    removed: plan.removeUsers.length + plan.removeEnrollments.length + plan.removeClasses.length,
  };
};

export interface Applied {
  schools: number;
  classes: number;
  pupils: number;
  teachers: number;
  memberships: number;
  removed: number;
}

/** What the steps share: the plan, the ids made or found so far by ref, and the ways to find the others. */
export interface Run {
  tx: Context;
  db: Context['db'];
  now: number;
  pid: string;
  plan: Plan;
  /** Recorded as the pupils' creator (0 from the CLI). */
  operatorId: number;
  /** Org ref → school id. */
  schoolOf: Map<string, number>;
  /** Class ref → class id. */
  classOf: Map<string, number>;
  /** Person ref → account id. */
  userOf: Map<string, number>;
  /** Class id → its school's id, for the memberships' links. */
  classSchool: Map<number, number>;
  /** An org's school: made or matched in this run, else the one its link names (E_2 when none). */
  schoolIdOf: (ref: string) => Promise<number>;
  /** A class's or person's id: made in this run or read before, else the one its link names (E_2 when none). */
  idOf: (kind: 'class' | 'user', ref: string) => Promise<number>;
  /** A new link of the roster's `ref` to what the run made or matched for it. */
  link: (kind: RefKind, ref: string, ids: { school: number; class?: number; user?: number }) => NewLink;
  /** Counts rows done towards the progress total. */
  step: (n: number) => void;
}

type NewLink = Insertable<RosterLinksTable>;

const startRun = (
  tx: Context,
  plan: Plan,
  operatorId: number,
  progress: ((done: number, total: number) => void) | undefined,
): Run => {
  const { db } = tx;
  const now = tx.now();
  const total = plan.newPupils.length + plan.newEnrollments.length + plan.removeEnrollments.length;
  let done = 0;
  const schoolOf = new Map<string, number>();
  const classOf = new Map<string, number>();
  const userOf = new Map<string, number>();
  const classSchool = new Map<number, number>();
  return {
    tx,
    db,
    now,
    pid: defaultPid(tx),
    plan,
    operatorId,
    schoolOf,
    classOf,
    userOf,
    classSchool,
    schoolIdOf: async (ref) => {
      const known = schoolOf.get(ref);
      if (known !== undefined) return known;
      const link = (await findLink(db, 'org', ref)) ?? fail('E_2');
      schoolOf.set(ref, Number(link.school_id));
      return Number(link.school_id);
    },
    idOf: async (kind, ref) => {
      const cache = kind === 'class' ? classOf : userOf;
      const known = cache.get(ref);
      if (known !== undefined) return known;
      const link = (await findLink(db, kind, ref)) ?? fail('E_2');
      const id = Number(kind === 'class' ? link.class_id : link.user_id);
      cache.set(ref, id);
      if (kind === 'class') classSchool.set(id, Number(link.school_id));
      return id;
    },
    link: (kind, ref, ids) => ({
      kind,
      source_hash: ref,
      school_id: ids.school,
      class_id: ids.class ?? null,
      user_id: ids.user ?? null,
      created_at: now,
      removed_at: null,
    }),
    step: (n) => {
      done += n;
      progress?.(done, total);
    },
  };
};

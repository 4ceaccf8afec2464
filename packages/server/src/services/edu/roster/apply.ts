/**
 * Confirming a roster: the plan (plan.ts) carried out in one transaction, in batches (a few hundred
 * rows a statement, never a round trip per row for pupils, links or memberships), so a 50,000-row
 * file takes seconds and a failure leaves nothing half-made. Pupil accounts follow the model of
 * teacher-created pupils: a school username, a sealed initial password for the card sheet, no phone,
 * the age band of the class's grade and, under 14, the school's agreement standing for consent where
 * one is in force (school-agreements.ts); without one the pupil waits for a guardian.
 */
import type { Context } from '../../../context.ts';
import { ApiError, fail } from '../../../errors.ts';
import { insertNamedUsers } from '../../../store/account/users.ts';
import {
  archiveClassRows,
  chunks,
  deleteClassMembers,
  deleteLinks,
  findLink,
  insertLinks,
  linksByHash,
  renamePupilRows,
  renameSchoolRow,
  setLinksRemoved,
  updateEnrollmentLinks,
} from '../../../store/edu/roster/roster.ts';
import { insertClass, putClassMembers, updateClassRow } from '../../../store/edu/school/classes.ts';
import { insertPupilAccounts } from '../../../store/edu/school/pupils.ts';
import { insertSchool, putSchoolMember } from '../../../store/edu/school/schools.ts';
import { endpointsFor } from '../../../store/webhooks/endpoints.ts';
import { SEALED_INITIAL_PASSWORD, sealInitialPassword } from '../../passwords/initial-passwords.ts';
import { defaultPid } from '../../sessions/access-tokens.ts';
import { newUser, recordUserCreated } from '../../sign-in/sign-up.ts';
import { recordEvent, subscribes } from '../../webhooks/events.ts';
import { ageColumns, bandOfGrade } from '../family/age.ts';
import { schoolConsentStands } from '../family/school-agreements.ts';
import { drawInitialPassword } from '../school/credentials.ts';
import { freeUsernames } from '../school/pupils.ts';
import type { Plan } from './plan.ts';

type ClassRole = 'pupil' | 'teacher' | 'head_teacher';

export interface Applied {
  schools: number;
  classes: number;
  pupils: number;
  teachers: number;
  memberships: number;
  removed: number;
}

/** Runs the plan inside `tx` (a transaction); `operatorId` is recorded as the pupils' creator (0 from the CLI). */
export const applyPlan = async (
  tx: Context,
  plan: Plan,
  operatorId: number,
  progress?: (done: number, total: number) => void,
): Promise<Applied> => {
  const { db } = tx;
  const now = tx.now();
  const pid = defaultPid(tx);
  const total = plan.newPupils.length + plan.newEnrollments.length + plan.removeEnrollments.length;
  let done = 0;
  const step = (n: number) => {
    done += n;
    progress?.(done, total);
  };

  // Schools.
  const schoolOf = new Map<string, number>();
  for (const org of plan.linkSchools) schoolOf.set(org.ref, org.schoolId);
  for (const org of plan.newSchools) {
    const created = await insertSchool(db, { name: org.name, daily_batches: null, created_at: now });
    schoolOf.set(org.ref, Number(created.id));
  }
  for (const r of plan.renameSchools) await renameSchoolRow(db, r.schoolId, r.to);
  await insertLinks(
    db,
    [...plan.linkSchools, ...plan.newSchools].map((o) => ({
      kind: 'org',
      source_hash: o.ref,
      school_id: schoolOf.get(o.ref) as number,
      class_id: null,
      user_id: null,
      created_at: now,
      removed_at: null,
    })),
  );
  const orgSchool = async (ref: string) => {
    const known = schoolOf.get(ref);
    if (known !== undefined) return known;
    const link = (await findLink(db, 'org', ref)) ?? fail('E_2');
    schoolOf.set(ref, Number(link.school_id));
    return Number(link.school_id);
  };

  // Classes: created one by one (a school has hundreds, not thousands), changed, archived.
  const classOf = new Map<string, number>();
  const classLinks = [];
  for (const c of plan.newClasses) {
    const schoolId = await orgSchool(c.orgRef);
    const created = await insertClass(db, {
      school_id: schoolId,
      name: c.title,
      grade: c.grade,
      school_year: c.schoolYear,
      created_at: now,
    });
    classOf.set(c.ref, Number(created.id));
    classLinks.push({
      kind: 'class',
      source_hash: c.ref,
      school_id: schoolId,
      class_id: Number(created.id),
      user_id: null,
      created_at: now,
      removed_at: null,
    });
  }
  await insertLinks(db, classLinks);
  for (const c of plan.changeClasses) {
    await updateClassRow(db, c.classId, {
      name: c.title,
      grade: c.grade,
      school_year: c.schoolYear,
      archived_at: null,
    });
  }
  await setLinksRemoved(
    db,
    'class',
    plan.changeClasses.map((c) => c.ref),
    null,
  );
  await archiveClassRows(
    db,
    plan.removeClasses.map((c) => c.classId),
    now,
  );
  await setLinksRemoved(
    db,
    'class',
    plan.removeClasses.map((c) => c.ref),
    now,
  );

  // Pupils, a batch per school at a time.
  const userOf = new Map<string, number>();
  const mustChange = tx.config.eduPupilPasswordChange ? 1 : 0;
  const announce = (await endpointsFor(db, pid)).some((e) => subscribes(e.events, 'user.created'));
  const createdBySchool = new Map<number, number[]>();
  for (const batch of chunks(plan.newPupils, 400)) {
    const bySchool = new Map<number, typeof batch>();
    for (const p of batch) {
      const schoolId = await orgSchool(p.orgRef);
      bySchool.set(schoolId, [...(bySchool.get(schoolId) ?? []), p]);
    }
    for (const [schoolId, pupils] of bySchool) {
      const usernames = await freeUsernames(tx, schoolId, pupils.length);
      const consent = (await schoolConsentStands(tx, schoolId)) ? 'school' : 'guardian';
      const users = await insertNamedUsers(
        db,
        pupils.map((p, i) => {
          const username = usernames[i] as string;
          return newUser(tx, {
            pid,
            username,
            username_key: username.toLowerCase(),
            password_hash: SEALED_INITIAL_PASSWORD,
            fullname: p.name,
            ...ageColumns(bandOfGrade(p.grade), null, consent),
          });
        }),
      );
      const rows = [];
      const links = [];
      for (const [i, user] of users.entries()) {
        const pupil = pupils[i];
        if (!user || !pupil) throw new ApiError('E_10', 'A username was taken meanwhile. Try again.');
        if (announce) await recordUserCreated(tx, user, 'school_roster');
        userOf.set(pupil.ref, user.id);
        rows.push({
          user_id: user.id,
          school_id: schoolId,
          created_by: operatorId,
          display_name: pupil.name,
          initial_password_sealed: sealInitialPassword(tx, user.id, drawInitialPassword()),
          must_change_password: mustChange,
          created_at: now,
        });
        links.push({
          kind: 'user',
          source_hash: pupil.ref,
          school_id: schoolId,
          class_id: null,
          user_id: user.id,
          created_at: now,
          removed_at: null,
        });
      }
      await insertPupilAccounts(db, rows);
      await insertLinks(db, links);
      createdBySchool.set(schoolId, [...(createdBySchool.get(schoolId) ?? []), ...rows.map((r) => r.user_id)]);
      step(pupils.length);
    }
  }
  for (const [schoolId, userIds] of createdBySchool) {
    await recordEvent(tx, {
      type: 'pupils.created',
      userId: operatorId,
      product: pid,
      data: { school_id: schoolId, user_ids: userIds },
    });
  }

  // Teachers: their own accounts, now approved teachers of the school.
  const teacherLinks = [];
  for (const t of plan.linkTeachers) {
    const schoolId = await orgSchool(t.orgRef);
    await putSchoolMember(db, {
      school_id: schoolId,
      user_id: t.userId,
      role: 'teacher',
      status: 'approved',
      created_at: now,
    });
    userOf.set(t.ref, t.userId);
    teacherLinks.push({
      kind: 'user',
      source_hash: t.ref,
      school_id: schoolId,
      class_id: null,
      user_id: t.userId,
      created_at: now,
      removed_at: null,
    });
  }
  await insertLinks(db, teacherLinks);
  await renamePupilRows(db, plan.renameUsers, now);
  await setLinksRemoved(
    db,
    'user',
    plan.restoreUsers.map((r) => r.ref),
    null,
  );
  await setLinksRemoved(
    db,
    'user',
    plan.removeUsers.map((r) => r.ref),
    now,
  );

  // Memberships: ended ones first (a changed one ends and starts again).
  const ended = [...plan.removeEnrollments, ...plan.changeEnrollments.map((c) => ({ ...c.from, ref: c.ref }))];
  await deleteClassMembers(db, ended);
  await deleteLinks(
    db,
    'enrollment',
    plan.removeEnrollments.map((e) => e.ref),
  );
  step(plan.removeEnrollments.length);
  const idOf = async (kind: 'class' | 'user', ref: string) => {
    const cache = kind === 'class' ? classOf : userOf;
    const known = cache.get(ref);
    if (known !== undefined) return known;
    const link = (await findLink(db, kind, ref)) ?? fail('E_2');
    const id = Number(kind === 'class' ? link.class_id : link.user_id);
    cache.set(ref, id);
    if (kind === 'class') classSchool.set(id, Number(link.school_id));
    return id;
  };
  const classSchool = new Map<number, number>();
  for (const c of classLinks) classSchool.set(c.class_id, c.school_id);
  await preloadIds(db, plan, classOf, userOf, classSchool);
  const relinked = [];
  for (const c of plan.changeEnrollments) {
    relinked.push({ ref: c.ref, classId: await idOf('class', c.classRef), userId: await idOf('user', c.userRef) });
  }
  await updateEnrollmentLinks(db, relinked);
  const joined = [...plan.changeEnrollments, ...plan.newEnrollments];
  const added = new Set(plan.newEnrollments.map((e) => e.ref));
  /** A class the plan names whose school is not known: the roster changed under this confirm. */
  const changedMeanwhile = (): never => {
    throw new ApiError('E_10', 'The roster changed while it was applied. Confirm again.');
  };
  for (const batch of chunks(joined, 400)) {
    const rows = [];
    for (const e of batch) {
      rows.push({
        ref: e.ref,
        classId: await idOf('class', e.classRef),
        userId: await idOf('user', e.userRef),
        role: e.role,
      });
    }
    await putClassMembers(
      db,
      rows.map((r) => ({
        class_id: r.classId,
        user_id: r.userId,
        role: r.role as ClassRole,
        status: 'active' as const,
        created_at: now,
      })),
    );
    await insertLinks(
      db,
      rows
        .filter((r) => added.has(r.ref))
        .map((r) => ({
          kind: 'enrollment',
          source_hash: r.ref,
          school_id: classSchool.get(r.classId) ?? changedMeanwhile(),
          class_id: r.classId,
          user_id: r.userId,
          created_at: now,
          removed_at: null,
        })),
    );
    step(batch.length);
  }
  return {
    schools: plan.newSchools.length,
    classes: plan.newClasses.length,
    pupils: plan.newPupils.length,
    teachers: plan.linkTeachers.length,
    memberships: plan.newEnrollments.length,
    removed: plan.removeUsers.length + plan.removeEnrollments.length + plan.removeClasses.length,
  };
};

/** The ids of the classes and people the memberships name that existed before, in a few queries. */
const preloadIds = async (
  db: Context['db'],
  plan: Plan,
  classOf: Map<string, number>,
  userOf: Map<string, number>,
  classSchool: Map<number, number>,
) => {
  const joined = [...plan.changeEnrollments, ...plan.newEnrollments];
  const classRefs = [...new Set(joined.map((e) => e.classRef).filter((r) => !classOf.has(r)))];
  const userRefs = [...new Set(joined.map((e) => e.userRef).filter((r) => !userOf.has(r)))];
  for (const [kind, refs] of [
    ['class', classRefs],
    ['user', userRefs],
  ] as const) {
    for (const r of await linksByHash(db, kind, refs)) {
      if (kind === 'class') {
        classOf.set(r.source_hash, Number(r.class_id));
        classSchool.set(Number(r.class_id), Number(r.school_id));
      } else userOf.set(r.source_hash, Number(r.user_id));
    }
  }
};

/**
 * The last step of confirming a roster: memberships. Ended ones go first (a changed one ends and
 * starts again), then changed links are pointed at their new class and person, then memberships are
 * put and new links made, 400 at a time.
 */
import { ApiError } from '../../../errors.ts';
import {
  chunks,
  deleteClassMembers,
  deleteLinks,
  insertLinks,
  linksByHash,
  updateEnrollmentLinks,
} from '../../../store/edu/roster/roster.ts';
import { putClassMembers } from '../../../store/edu/school/classes.ts';
import type { Run } from './apply.ts';

type ClassRole = 'pupil' | 'teacher' | 'head_teacher';

/** A class the plan names whose school is not known: the roster changed under this confirm. */
const changedMeanwhile = (): never => {
  throw new ApiError('E_10', 'The roster changed while it was applied. Confirm again.');
};

export const applyMemberships = async (run: Run) => {
  const { db, now, plan } = run;
  const ended = [...plan.removeEnrollments, ...plan.changeEnrollments.map((c) => ({ ...c.from, ref: c.ref }))];
  await deleteClassMembers(db, ended);
  await deleteLinks(
    db,
    'enrollment',
    plan.removeEnrollments.map((e) => e.ref),
  );
  run.step(plan.removeEnrollments.length);
  await preloadIds(run);
  const relinked = [];
  for (const c of plan.changeEnrollments) {
    relinked.push({
      ref: c.ref,
      classId: await run.idOf('class', c.classRef),
      userId: await run.idOf('user', c.userRef),
    });
  }
  await updateEnrollmentLinks(db, relinked);
  const joined = [...plan.changeEnrollments, ...plan.newEnrollments];
  const added = new Set(plan.newEnrollments.map((e) => e.ref));
  for (const batch of chunks(joined, 400)) {
    const rows = [];
    for (const e of batch) {
      rows.push({
        ref: e.ref,
        classId: await run.idOf('class', e.classRef),
        userId: await run.idOf('user', e.userRef),
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
        .map((r) =>
          run.link('enrollment', r.ref, {
            school: run.classSchool.get(r.classId) ?? changedMeanwhile(),
            class: r.classId,
            user: r.userId,
          }),
        ),
    );
    run.step(batch.length);
  }
};

/** The ids of the classes and people the memberships name that existed before, in a few queries. */
const preloadIds = async ({ db, plan, classOf, userOf, classSchool }: Run) => {
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

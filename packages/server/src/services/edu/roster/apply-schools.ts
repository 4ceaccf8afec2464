/**
 * The first steps of confirming a roster: schools made, renamed and linked to their orgs, then
 * classes made one by one (a school has hundreds, not thousands), changed and archived.
 */
import { archiveClassRows, insertLinks, renameSchoolRow, setLinksRemoved } from '../../../store/edu/roster/roster.ts';
import { insertClass, updateClassRow } from '../../../store/edu/school/classes.ts';
import { insertSchool } from '../../../store/edu/school/schools.ts';
import type { Run } from './apply.ts';

export const applySchools = async (run: Run) => {
  const { db, now, plan, schoolOf } = run;
  for (const org of plan.linkSchools) schoolOf.set(org.ref, org.schoolId);
  for (const org of plan.newSchools) {
    const created = await insertSchool(db, { name: org.name, daily_batches: null, created_at: now });
    schoolOf.set(org.ref, Number(created.id));
  }
  for (const r of plan.renameSchools) await renameSchoolRow(db, r.schoolId, r.to);
  await insertLinks(
    db,
    [...plan.linkSchools, ...plan.newSchools].map((o) =>
      run.link('org', o.ref, { school: schoolOf.get(o.ref) as number }),
    ),
  );
};

export const applyClasses = async (run: Run) => {
  const { db, now, plan } = run;
  const links = [];
  for (const c of plan.newClasses) {
    const schoolId = await run.schoolIdOf(c.orgRef);
    const created = await insertClass(db, {
      school_id: schoolId,
      name: c.title,
      grade: c.grade,
      school_year: c.schoolYear,
      created_at: now,
    });
    run.classOf.set(c.ref, Number(created.id));
    run.classSchool.set(Number(created.id), schoolId);
    links.push(run.link('class', c.ref, { school: schoolId, class: Number(created.id) }));
  }
  for (const c of plan.linkClasses) {
    run.classOf.set(c.ref, c.classId);
    run.classSchool.set(c.classId, c.schoolId);
    links.push(run.link('class', c.ref, { school: c.schoolId, class: c.classId }));
  }
  await insertLinks(db, links);
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
};

/**
 * The second step of a plan: the classes. A class linked before is changed when the file gives it
 * another title, grade or school year (or it was archived or removed), and removed when a delta file
 * says `tobedeleted` or a bulk file of its school leaves it out; an unlinked one is to be created in
 * its org's school. A class whose org is unknown is refused (naming the school's refused row when the
 * file has one). A class the file gives no grade keeps the one it has, and a new one takes
 * `GRADE_WHEN_NONE`. What comes out is every class that exists after the import, with its grade and
 * school, for the people and memberships that name it.
 */
import type { Context } from '../../../context.ts';
import { classRowsById, linksByHash, linksOfSchools, type RosterLink } from '../../../store/edu/roster/roster.ts';
import type { RosterClass } from './model.ts';
import type { ClassFields, Planning } from './plan.ts';
import { byHash, type Schools } from './plan-schools.ts';

/**
 * The grade of a new class the file gives none (nor its pupils' rows): 一年级, the youngest school
 * grade, whose age band asks the most (a guardian's consent) until a teacher sets the real one. The
 * preview says the grade was not in the file.
 */
const GRADE_WHEN_NONE = 1;

type ClassRow = ReturnType<Awaited<ReturnType<typeof classRowsById>>['get']>;

export interface Classes {
  /** The links of the classes the file names, and in a bulk file those of its schools, by ref. */
  links: Map<string, RosterLink>;
  /** Classes that exist after the import: ref → grade and school (an id, or an org ref to be created). */
  known: Map<string, { grade: number; school: number | string }>;
}

export const resolveClasses = async (planning: Planning, schools: Schools): Promise<Classes> => {
  const { ctx, roster, plan } = planning;
  const classRefs = [...roster.classes.map((c) => c.ref), ...roster.enrollments.map((e) => e.classRef)];
  const linkList = await linksByHash(ctx.db, 'class', classRefs);
  const bulk = roster.modes.classes === 'bulk';
  if (bulk) linkList.push(...(await linksOfSchools(ctx.db, 'class', [...schools.involved])));
  const links = byHash(linkList);
  const rows = await classRowsById(
    ctx.db,
    [...links.values()].map((l) => Number(l.class_id)),
  );
  const known: Classes['known'] = new Map();
  for (const [ref, link] of links) {
    const row = rows.get(Number(link.class_id));
    if (row && link.removed_at === null) known.set(ref, { grade: Number(row.grade), school: Number(row.school_id) });
  }
  const inFile = new Set<string>();
  for (const c of roster.classes) {
    inFile.add(c.ref);
    const link = links.get(c.ref);
    planClass(planning, schools, known, c, link, link ? rows.get(Number(link.class_id)) : undefined);
  }
  if (bulk) {
    for (const [ref, link] of links) {
      const row = rows.get(Number(link.class_id));
      if (inFile.has(ref) || link.removed_at !== null || !row || !schools.involved.has(Number(link.school_id)))
        continue;
      plan.removeClasses.push({ ref, classId: Number(row.id), schoolId: Number(row.school_id), title: row.name });
      known.delete(ref);
    }
  }
  return { links, known };
};

/** One class row of the file: removed, refused, changed, kept as it is, or created. */
const planClass = (
  { ctx, plan, column, refuse, causeOf }: Planning,
  schools: Schools,
  known: Classes['known'],
  c: RosterClass,
  link: RosterLink | undefined,
  row: ClassRow,
) => {
  if (c.deleted) {
    if (link && row && link.removed_at === null) {
      plan.removeClasses.push({
        ref: c.ref,
        classId: Number(row.id),
        schoolId: Number(row.school_id),
        title: row.name,
      });
      known.delete(c.ref);
    }
    return;
  }
  const school = schools.schoolOf.get(c.orgRef);
  if (school === undefined) {
    const cause = causeOf(c.orgRef);
    const subject = { kind: 'class' as const, ref: c.ref, name: c.title };
    refuse(c.at, column('学校', 'schoolSourcedId'), cause ? 'org_refused' : 'unknown_org', { subject, cause });
    known.delete(c.ref);
    return;
  }
  const grade = c.grade ?? (row ? Number(row.grade) : GRADE_WHEN_NONE);
  const fields: ClassFields = { title: c.title, grade, schoolYear: c.schoolYear || String(yearOf(ctx)) };
  if (!(link && row)) {
    plan.newClasses.push({
      ref: c.ref,
      orgRef: c.orgRef,
      ...fields,
      ...(c.grade === null ? { gradeAssumed: true } : {}),
    });
    known.set(c.ref, { grade: fields.grade, school });
    return;
  }
  const from = {
    title: row.name,
    grade: Number(row.grade),
    schoolYear: row.school_year,
    archived: row.archived_at !== null,
  };
  const same =
    from.title === fields.title &&
    from.grade === fields.grade &&
    from.schoolYear === fields.schoolYear &&
    !from.archived &&
    link.removed_at === null;
  if (!same) {
    plan.changeClasses.push({ ref: c.ref, classId: Number(row.id), schoolId: Number(row.school_id), from, ...fields });
  }
  known.set(c.ref, { grade: fields.grade, school: Number(row.school_id) });
};

/** The calendar year, for a class whose file names no school year. */
const yearOf = (ctx: Pick<Context, 'now'>) => new Date(ctx.now()).getUTCFullYear();

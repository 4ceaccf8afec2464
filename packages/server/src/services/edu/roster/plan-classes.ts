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
import { classesOfSchool } from '../../../store/edu/school/classes.ts';
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
  const names = await classNamesOf(ctx, roster.classes, schools);
  const inFile = new Set<string>();
  for (const c of roster.classes) {
    inFile.add(c.ref);
    const link = links.get(c.ref);
    planClass(planning, schools, { known, names }, c, link, link ? rows.get(Number(link.class_id)) : undefined);
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

/** A class's name in its school and year, as the unique index compares them. */
const nameKey = (school: number | string, schoolYear: string, title: string) =>
  `${school}\u0000${schoolYear}\u0000${title}`;

/** Who holds a name: an existing class (its row, and whether the roster linked it) or a class of this file. */
type NameHolder = { row: NonNullable<ClassRow>; linked: boolean } | { row: undefined; linked: true };

/** The names the existing classes of the file's schools hold, and whether the roster linked each. */
const classNamesOf = async (ctx: Context, classes: RosterClass[], schools: Schools) => {
  const names = new Map<string, NameHolder>();
  const ids = new Set<number>();
  for (const c of classes) {
    const school = schools.schoolOf.get(c.orgRef);
    if (typeof school === 'number') ids.add(school);
  }
  const linked = new Set((await linksOfSchools(ctx.db, 'class', [...ids])).map((l) => Number(l.class_id)));
  for (const id of ids) {
    for (const row of await classesOfSchool(ctx.db, id)) {
      names.set(nameKey(id, row.school_year, row.name), { row, linked: linked.has(Number(row.id)) });
    }
  }
  return names;
};

/**
 * One class row of the file: removed, refused, changed, kept as it is, matched or created. Names are
 * unique per school and year (../school/class-names.ts): a new class of the file whose name a class of
 * its school holds in that year, made there by hand and not by a roster, is that class (matched, as a
 * school is by its name); one whose name a roster class or an earlier row of the file holds is refused.
 */
const planClass = (
  { ctx, plan, column, refuse, causeOf }: Planning,
  schools: Schools,
  { known, names }: { known: Classes['known']; names: Map<string, NameHolder> },
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
  const name = nameKey(row ? Number(row.school_id) : school, fields.schoolYear, fields.title);
  const holder = names.get(name);
  const matched = !(link && row) && holder?.row && !holder.linked ? holder.row : undefined;
  if (holder !== undefined && !matched && (holder.row === undefined || Number(holder.row.id) !== Number(row?.id))) {
    refuse(c.at, column('班级', 'title'), 'class_name_taken', {
      subject: { kind: 'class', ref: c.ref, name: c.title },
    });
    known.delete(c.ref);
    return;
  }
  names.set(name, row ? { row, linked: true } : { row: undefined, linked: true });
  if (matched) {
    plan.linkClasses.push({
      ref: c.ref,
      classId: Number(matched.id),
      schoolId: Number(matched.school_id),
      ...fields,
    });
    planChange(plan, c.ref, matched, fields, true);
    known.set(c.ref, { grade: fields.grade, school: Number(matched.school_id) });
    return;
  }
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
  planChange(plan, c.ref, row, fields, link.removed_at === null);
  known.set(c.ref, { grade: fields.grade, school: Number(row.school_id) });
};

/** A class the file names otherwise than it is (title, grade, year, archived or its link removed): changed. */
const planChange = (
  plan: Planning['plan'],
  ref: string,
  row: NonNullable<ClassRow>,
  fields: ClassFields,
  listed: boolean,
) => {
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
    listed;
  if (!same)
    plan.changeClasses.push({ ref, classId: Number(row.id), schoolId: Number(row.school_id), from, ...fields });
};

/** The calendar year, for a class whose file names no school year. */
const yearOf = (ctx: Pick<Context, 'now'>) => new Date(ctx.now()).getUTCFullYear();

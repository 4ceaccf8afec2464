/**
 * What confirming a roster would do, worked out against the database without changing it: schools
 * created or matched (a school already linked to the roster's id, the school named with `--school`
 * for a one-school file, else a school of exactly that name), classes, pupil accounts created,
 * teachers matched to their own accounts (by phone, else e-mail: a teacher must be reachable, so
 * the import never makes a teacher account), names changed, memberships added and ended, and rows
 * refused. A bulk file removes what the roster linked before in the schools it names and now leaves
 * out; a delta file removes its `tobedeleted` rows. Comparing with the links is what makes a
 * re-import of the same files change nothing.
 */
import type { Context } from '../../../context.ts';
import {
  activeRolesInClasses,
  classRowsById,
  enrollmentLinksOfUsers,
  linksByHash,
  linksOfSchools,
  listedPeopleBySchool,
  pupilNamesById,
  type RosterLink,
  userIdsBy,
} from '../../../store/edu/roster/roster.ts';
import { allSchools } from '../../../store/edu/school/schools.ts';
import type { Refusal, RefusalReason, Roster, RosterRole, RosterUser, Where } from './model.ts';

type Db = Context['db'];

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
  newClasses: ({ ref: string; orgRef: string } & ClassFields)[];
  changeClasses: ({
    ref: string;
    classId: number;
    schoolId: number;
    from: ClassFields & { archived: boolean };
  } & ClassFields)[];
  removeClasses: { ref: string; classId: number; schoolId: number; title: string }[];
  newPupils: { ref: string; orgRef: string; name: string; grade: number }[];
  linkTeachers: { ref: string; orgRef: string; userId: number; name: string }[];
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
  refused: Refusal[];
  holds: { schoolId: number; name: string; removed: number; listed: number; percent: number }[];
}

const byHash = (links: RosterLink[]) => new Map(links.map((l) => [l.source_hash, l]));

/** Teachers' own accounts, by phone and by e-mail, and which of them are pupil accounts. */
const teacherAccounts = async (db: Db, users: RosterUser[]) => {
  const byPhone = await userIdsBy(
    db,
    'phone',
    users.map((u) => u.phone).filter((p) => p !== ''),
  );
  const byEmail = await userIdsBy(
    db,
    'email',
    users.map((u) => u.email).filter((e) => e !== ''),
  );
  const pupils = await pupilNamesById(db, [...byPhone.values(), ...byEmail.values()]);
  return { byPhone, byEmail, pupils };
};

export const planRoster = async (
  ctx: Context,
  roster: Roster,
  options: { schoolId: number | undefined; holdPercent: number },
): Promise<Plan> => {
  const { db } = ctx;
  const plan: Plan = {
    newSchools: [],
    linkSchools: [],
    renameSchools: [],
    newClasses: [],
    changeClasses: [],
    removeClasses: [],
    newPupils: [],
    linkTeachers: [],
    renameUsers: [],
    restoreUsers: [],
    removeUsers: [],
    newEnrollments: [],
    changeEnrollments: [],
    removeEnrollments: [],
    refused: [...roster.refused],
    holds: [],
  };
  const refuse = (at: Where, column: string, reason: RefusalReason) => plan.refused.push({ ...at, column, reason });
  const orgColumn = roster.format === 'template' ? '学校' : 'orgSourcedIds';

  // Schools. `schoolOf` answers an existing school's id, or the org's own ref when it is to be created.
  const orgRefs = [...roster.orgs.map((o) => o.ref), ...roster.classes.map((c) => c.orgRef)];
  for (const u of roster.users) if (u.orgRef) orgRefs.push(u.orgRef);
  const orgLinks = byHash(await linksByHash(db, 'org', orgRefs));
  const schools = await allSchools(db);
  const schoolById = new Map(schools.map((s) => [Number(s.id), s]));
  const schoolOf = new Map<string, number | string>();
  for (const [ref, link] of orgLinks) schoolOf.set(ref, Number(link.school_id));
  const listedOrgs = roster.orgs.filter((o) => !o.deleted);
  const claimed = new Set<number>();
  for (const org of listedOrgs) {
    const linked = orgLinks.get(org.ref);
    if (linked) {
      const current = schoolById.get(Number(linked.school_id));
      if (current && current.name !== org.name) {
        plan.renameSchools.push({ schoolId: Number(current.id), from: current.name, to: org.name });
      }
      continue;
    }
    const named =
      options.schoolId !== undefined && listedOrgs.length === 1
        ? schoolById.get(options.schoolId)
        : schools.find((s) => s.name === org.name && !claimed.has(Number(s.id)));
    if (named) {
      claimed.add(Number(named.id));
      schoolOf.set(org.ref, Number(named.id));
      plan.linkSchools.push({ ref: org.ref, schoolId: Number(named.id), name: named.name });
      if (named.name !== org.name)
        plan.renameSchools.push({ schoolId: Number(named.id), from: named.name, to: org.name });
    } else {
      schoolOf.set(org.ref, org.ref);
      plan.newSchools.push({ ref: org.ref, name: org.name });
    }
  }
  const involved = new Set<number>();
  for (const org of listedOrgs) {
    const school = schoolOf.get(org.ref);
    if (typeof school === 'number') involved.add(school);
  }
  if (options.schoolId !== undefined) involved.add(options.schoolId);
  const involvedIds = [...involved];

  // Classes.
  const classRefs = [...roster.classes.map((c) => c.ref), ...roster.enrollments.map((e) => e.classRef)];
  const classLinkList = await linksByHash(db, 'class', classRefs);
  if (roster.modes.classes === 'bulk') classLinkList.push(...(await linksOfSchools(db, 'class', involvedIds)));
  const classLinks = byHash(classLinkList);
  const classes = await classRowsById(
    db,
    [...classLinks.values()].map((l) => Number(l.class_id)),
  );
  /** Classes that exist after the import: ref → grade and school. */
  const classKnown = new Map<string, { grade: number; school: number | string }>();
  for (const [ref, link] of classLinks) {
    const row = classes.get(Number(link.class_id));
    if (row && link.removed_at === null)
      classKnown.set(ref, { grade: Number(row.grade), school: Number(row.school_id) });
  }
  const classInFile = new Set<string>();
  for (const c of roster.classes) {
    classInFile.add(c.ref);
    const link = classLinks.get(c.ref);
    const row = link ? classes.get(Number(link.class_id)) : undefined;
    if (c.deleted) {
      if (link && row && link.removed_at === null) {
        plan.removeClasses.push({
          ref: c.ref,
          classId: Number(row.id),
          schoolId: Number(row.school_id),
          title: row.name,
        });
        classKnown.delete(c.ref);
      }
      continue;
    }
    const school = schoolOf.get(c.orgRef);
    if (school === undefined) {
      refuse(c.at, roster.format === 'template' ? '学校' : 'schoolSourcedId', 'unknown_org');
      classKnown.delete(c.ref);
      continue;
    }
    const fields: ClassFields = { title: c.title, grade: c.grade, schoolYear: c.schoolYear || String(yearOf(ctx)) };
    if (link && row) {
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
      if (!same)
        plan.changeClasses.push({
          ref: c.ref,
          classId: Number(row.id),
          schoolId: Number(row.school_id),
          from,
          ...fields,
        });
      classKnown.set(c.ref, { grade: fields.grade, school: Number(row.school_id) });
    } else {
      plan.newClasses.push({ ref: c.ref, orgRef: c.orgRef, ...fields });
      classKnown.set(c.ref, { grade: fields.grade, school });
    }
  }
  if (roster.modes.classes === 'bulk') {
    for (const [ref, link] of classLinks) {
      const row = classes.get(Number(link.class_id));
      if (classInFile.has(ref) || link.removed_at !== null || !row || !involved.has(Number(link.school_id))) continue;
      plan.removeClasses.push({ ref, classId: Number(row.id), schoolId: Number(row.school_id), title: row.name });
      classKnown.delete(ref);
    }
  }

  // People.
  const userLinkList = await linksByHash(db, 'user', [
    ...roster.users.map((u) => u.ref),
    ...roster.enrollments.map((e) => e.userRef),
  ]);
  if (roster.modes.users === 'bulk') userLinkList.push(...(await linksOfSchools(db, 'user', involvedIds)));
  const userLinks = byHash(userLinkList);
  const linkedIds = [...userLinks.values()].map((l) => Number(l.user_id));
  const names = await pupilNamesById(db, linkedIds);
  /** The people who exist after the import: ref → role. */
  const userKnown = new Map<string, RosterRole>();
  for (const [ref, link] of userLinks) {
    if (link.removed_at === null) userKnown.set(ref, names.has(Number(link.user_id)) ? 'pupil' : 'teacher');
  }
  // The role a file without a role column gives: teacher when any enrollment says so.
  const enrollmentRole = new Map<string, RosterRole>();
  const firstClass = new Map<string, string>();
  for (const e of roster.enrollments) {
    if (e.deleted) continue;
    if (e.role !== 'pupil') enrollmentRole.set(e.userRef, 'teacher');
    else if (!enrollmentRole.has(e.userRef)) enrollmentRole.set(e.userRef, 'pupil');
    if (!firstClass.has(e.userRef) && classKnown.has(e.classRef)) firstClass.set(e.userRef, e.classRef);
  }
  const unlinkedTeachers = roster.users.filter(
    (u) => !u.deleted && !userLinks.has(u.ref) && (u.role ?? enrollmentRole.get(u.ref)) === 'teacher',
  );
  const accounts = await teacherAccounts(db, unlinkedTeachers);
  const userInFile = new Set<string>();
  const removedUsers = new Set<number>();
  const removeUser = (ref: string, link: RosterLink, name: string) => {
    plan.removeUsers.push({ ref, userId: Number(link.user_id), schoolId: Number(link.school_id), name });
    removedUsers.add(Number(link.user_id));
    userKnown.delete(ref);
  };
  for (const u of roster.users) {
    userInFile.add(u.ref);
    const link = userLinks.get(u.ref);
    if (u.deleted) {
      if (link && link.removed_at === null) removeUser(u.ref, link, names.get(Number(link.user_id)) ?? '');
      continue;
    }
    const role = u.role ?? enrollmentRole.get(u.ref) ?? 'pupil';
    if (link) {
      const userId = Number(link.user_id);
      if (link.removed_at !== null) {
        plan.restoreUsers.push({ ref: u.ref, userId, schoolId: Number(link.school_id) });
        userKnown.set(u.ref, names.has(userId) ? 'pupil' : 'teacher');
      }
      const current = names.get(userId);
      if (current !== undefined && current !== u.name)
        plan.renameUsers.push({ ref: u.ref, userId, from: current, to: u.name });
      continue;
    }
    const classRef = firstClass.get(u.ref);
    const orgRef =
      (u.orgRef !== undefined && schoolOf.has(u.orgRef) ? u.orgRef : undefined) ??
      (classRef ? orgRefOfClass(roster, classRef, classKnown, orgLinks) : undefined);
    if (orgRef === undefined) {
      refuse(u.at, orgColumn, 'unknown_org');
      continue;
    }
    if (role === 'pupil') {
      const grade = classRef ? classKnown.get(classRef)?.grade : undefined;
      if (grade === undefined) {
        refuse(u.at, roster.format === 'template' ? '班级' : 'enrollments.csv', 'no_class');
        continue;
      }
      plan.newPupils.push({ ref: u.ref, orgRef, name: u.name, grade });
      userKnown.set(u.ref, 'pupil');
    } else {
      const userId =
        (u.phone && accounts.byPhone.get(u.phone)) || (u.email && accounts.byEmail.get(u.email)) || undefined;
      if (userId === undefined) {
        refuse(u.at, roster.format === 'template' ? '手机' : 'phone', 'teacher_without_account');
        continue;
      }
      if (accounts.pupils.has(userId)) {
        refuse(u.at, roster.format === 'template' ? '角色' : 'role', 'role_mismatch');
        continue;
      }
      plan.linkTeachers.push({ ref: u.ref, orgRef, userId, name: u.name });
      userKnown.set(u.ref, 'teacher');
    }
  }
  if (roster.modes.users === 'bulk') {
    for (const [ref, link] of userLinks) {
      if (userInFile.has(ref) || link.removed_at !== null || !involved.has(Number(link.school_id))) continue;
      removeUser(ref, link, names.get(Number(link.user_id)) ?? '');
    }
  }

  // Memberships.
  const enrollmentLinkList = await linksByHash(
    db,
    'enrollment',
    roster.enrollments.map((e) => e.ref),
  );
  if (roster.modes.enrollments === 'bulk') {
    enrollmentLinkList.push(...(await linksOfSchools(db, 'enrollment', involvedIds)));
  }
  enrollmentLinkList.push(...(await enrollmentLinksOfUsers(db, [...removedUsers])));
  const enrollmentLinks = byHash(enrollmentLinkList);
  const memberRoles = await activeRolesInClasses(
    db,
    [...enrollmentLinks.values()].map((l) => Number(l.class_id)),
  );
  const classIdOf = (ref: string) => {
    const link = classLinks.get(ref);
    return link ? Number(link.class_id) : undefined;
  };
  const userIdOf = (ref: string) => {
    const link = userLinks.get(ref);
    return link ? Number(link.user_id) : undefined;
  };
  const enrollmentInFile = new Set<string>();
  const removing = new Set<string>();
  const removeEnrollment = (ref: string, link: RosterLink) => {
    if (removing.has(ref)) return;
    removing.add(ref);
    plan.removeEnrollments.push({ ref, classId: Number(link.class_id), userId: Number(link.user_id) });
  };
  for (const e of roster.enrollments) {
    enrollmentInFile.add(e.ref);
    const link = enrollmentLinks.get(e.ref);
    if (e.deleted) {
      if (link) removeEnrollment(e.ref, link);
      continue;
    }
    if (!classKnown.has(e.classRef)) {
      refuse(e.at, roster.format === 'template' ? '班级' : 'classSourcedId', 'unknown_class');
      if (link) removeEnrollment(e.ref, link);
      continue;
    }
    const userRole = userKnown.get(e.userRef);
    if (userRole === undefined) {
      refuse(e.at, roster.format === 'template' ? '学号/编号' : 'userSourcedId', 'unknown_user');
      if (link) removeEnrollment(e.ref, link);
      continue;
    }
    if ((userRole === 'pupil') !== (e.role === 'pupil')) {
      refuse(e.at, roster.format === 'template' ? '角色' : 'role', 'role_mismatch');
      continue;
    }
    if (link) {
      const classId = classIdOf(e.classRef);
      const userId = userIdOf(e.userRef);
      const same =
        classId === Number(link.class_id) &&
        userId === Number(link.user_id) &&
        memberRoles.get(`${classId}:${userId}`) === e.role;
      if (!same) {
        plan.changeEnrollments.push({
          ref: e.ref,
          classRef: e.classRef,
          userRef: e.userRef,
          role: e.role,
          from: { classId: Number(link.class_id), userId: Number(link.user_id) },
        });
      }
    } else plan.newEnrollments.push({ ref: e.ref, classRef: e.classRef, userRef: e.userRef, role: e.role });
  }
  for (const [ref, link] of enrollmentLinks) {
    if (enrollmentInFile.has(ref) && !removedUsers.has(Number(link.user_id))) continue;
    const bulkGone = roster.modes.enrollments === 'bulk' && involved.has(Number(link.school_id));
    if (bulkGone || removedUsers.has(Number(link.user_id))) removeEnrollment(ref, link);
  }

  // Holds: a file that would take more than the set share of a school's listed people away.
  const listed = await listedPeopleBySchool(db, [...new Set(plan.removeUsers.map((r) => r.schoolId))]);
  const removedBySchool = new Map<number, number>();
  for (const r of plan.removeUsers) removedBySchool.set(r.schoolId, (removedBySchool.get(r.schoolId) ?? 0) + 1);
  for (const [schoolId, removed] of removedBySchool) {
    const total = listed.get(schoolId) ?? 0;
    const percent = total === 0 ? 0 : Math.round((removed * 1000) / total) / 10;
    if (total > 0 && percent > options.holdPercent) {
      plan.holds.push({ schoolId, name: schoolById.get(schoolId)?.name ?? '', removed, listed: total, percent });
    }
  }
  return plan;
};

/** The org of a class: its row in the file, else the school of its link (as an org ref known to `schoolOf`). */
const orgRefOfClass = (
  roster: Roster,
  classRef: string,
  classKnown: Map<string, { school: number | string }>,
  orgLinks: Map<string, RosterLink>,
): string | undefined => {
  const inFile = classOrgs(roster).get(classRef);
  if (inFile) return inFile;
  const school = classKnown.get(classRef)?.school;
  for (const [ref, link] of orgLinks) if (Number(link.school_id) === school) return ref;
  return undefined;
};

const classOrgCache = new WeakMap<Roster, Map<string, string>>();
const classOrgs = (roster: Roster) => {
  let map = classOrgCache.get(roster);
  if (!map) {
    map = new Map(roster.classes.map((c) => [c.ref, c.orgRef]));
    classOrgCache.set(roster, map);
  }
  return map;
};

/** The calendar year, for a class whose file names no school year. */
const yearOf = (ctx: Pick<Context, 'now'>) => new Date(ctx.now()).getUTCFullYear();

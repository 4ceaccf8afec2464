/**
 * The third step of a plan: the people. A person linked before is renamed when the file names them
 * otherwise, restored when their link was removed, and removed when a delta file says `tobedeleted`
 * or a bulk file of their school leaves them out. An unlinked pupil is to be created in the school
 * and grade of their first class; an unlinked teacher is matched to their own account by phone, else
 * e-mail (the import never makes a teacher account). A person with no school, a pupil with no class,
 * a teacher without an account and a teacher whose account is a pupil's are refused; when their school
 * or class is in the file but was refused, the refusal names that row.
 */
import type { Context } from '../../../context.ts';
import {
  linksByHash,
  linksOfSchools,
  pupilNamesById,
  type RosterLink,
  userIdsBy,
} from '../../../store/edu/roster/roster.ts';
import type { Roster, RosterRole, RosterUser } from './model.ts';
import type { Planning } from './plan.ts';
import type { Classes } from './plan-classes.ts';
import { type KeyedPerson, keyedPeople } from './plan-keys.ts';
import { byHash, type Schools } from './plan-schools.ts';

type Db = Context['db'];

export interface People {
  /** The links of the people the file names, and in a bulk file those of its schools, by ref. */
  links: Map<string, RosterLink>;
  /** The people who exist after the import: ref → role. */
  known: Map<string, RosterRole>;
  /** The accounts whose link the import removes: their memberships end too. */
  removed: Set<number>;
}

/** What deciding one person needs besides the plan. */
interface Lookup extends People {
  /** Pupils' names by account; an account not in it is a teacher's. */
  names: Map<number, string>;
  roles: ReturnType<typeof rolesFromEnrollments>;
  accounts: Awaited<ReturnType<typeof teacherAccounts>>;
  schools: Schools;
  classes: Classes;
  /** The school's key of each person whose school exists, and the account it names (plan-keys.ts). */
  keyed: Map<string, KeyedPerson>;
}

export const resolvePeople = async (planning: Planning, schools: Schools, classes: Classes): Promise<People> => {
  const { ctx, roster } = planning;
  const linkList = await linksByHash(ctx.db, 'user', [
    ...roster.users.map((u) => u.ref),
    ...roster.enrollments.map((e) => e.userRef),
  ]);
  const bulk = roster.modes.users === 'bulk';
  if (bulk) linkList.push(...(await linksOfSchools(ctx.db, 'user', [...schools.involved])));
  const links = byHash(linkList);
  const roles = rolesFromEnrollments(planning, classes);
  const keyed = await keyedPeople(ctx, roster.users, (u) => {
    const link = links.get(u.ref);
    if (link) return Number(link.school_id);
    const classRef = roles.firstClass.get(u.ref);
    return (
      (u.orgRef === undefined ? undefined : schools.schoolOf.get(u.orgRef)) ??
      (classRef === undefined ? undefined : classes.known.get(classRef)?.school)
    );
  });
  const names = await pupilNamesById(ctx.db, [
    ...[...links.values()].map((l) => Number(l.user_id)),
    ...[...keyed.values()].flatMap((k) => (k.userId === undefined ? [] : [k.userId])),
  ]);
  const known = new Map<string, RosterRole>();
  for (const [ref, link] of links) {
    if (link.removed_at === null) known.set(ref, names.has(Number(link.user_id)) ? 'pupil' : 'teacher');
  }
  const unlinkedTeachers = roster.users.filter(
    (u) => !u.deleted && !links.has(u.ref) && (u.role ?? roles.role.get(u.ref)) === 'teacher',
  );
  const accounts = await teacherAccounts(ctx.db, unlinkedTeachers);
  const lookup: Lookup = { links, known, removed: new Set(), names, roles, accounts, schools, classes, keyed };
  const inFile = new Set<string>();
  for (const u of roster.users) {
    inFile.add(u.ref);
    planPerson(planning, lookup, u);
  }
  if (bulk) {
    for (const [ref, link] of links) {
      if (inFile.has(ref) || link.removed_at !== null || !schools.involved.has(Number(link.school_id))) continue;
      removePerson(planning, lookup, ref, link);
    }
  }
  return { links, known, removed: lookup.removed };
};

/**
 * The role a file without a role column gives (teacher when any enrollment says so), each person's
 * first class that exists after the import, and the first refused class of the file they are in.
 */
const rolesFromEnrollments = ({ roster, causeOf }: Planning, classes: Classes) => {
  const role = new Map<string, RosterRole>();
  const firstClass = new Map<string, string>();
  const refusedClass = new Map<string, string>();
  for (const e of roster.enrollments) {
    if (e.deleted) continue;
    if (e.role !== 'pupil') role.set(e.userRef, 'teacher');
    else if (!role.has(e.userRef)) role.set(e.userRef, 'pupil');
    if (!firstClass.has(e.userRef) && classes.known.has(e.classRef)) firstClass.set(e.userRef, e.classRef);
    if (!refusedClass.has(e.userRef) && causeOf(e.classRef)) refusedClass.set(e.userRef, e.classRef);
  }
  return { role, firstClass, refusedClass };
};

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

const removePerson = ({ plan }: Planning, lookup: Lookup, ref: string, link: RosterLink) => {
  const name = lookup.names.get(Number(link.user_id)) ?? '';
  plan.removeUsers.push({ ref, userId: Number(link.user_id), schoolId: Number(link.school_id), name });
  lookup.removed.add(Number(link.user_id));
  lookup.known.delete(ref);
};

/** One person of the file: removed, restored or renamed when linked before, else new. */
const planPerson = (planning: Planning, lookup: Lookup, u: RosterUser) => {
  const { plan } = planning;
  const link = lookup.links.get(u.ref);
  if (u.deleted) {
    if (link && link.removed_at === null) removePerson(planning, lookup, u.ref, link);
    return;
  }
  if (!link) {
    const keyed = lookup.keyed.get(u.ref);
    if (keyed?.userId !== undefined) return planKeyedPerson(planning, lookup, u, keyed.school, keyed.userId);
    // A graduated pupil the book still lists: kept when linked, never created.
    return u.leaving ? undefined : planNewPerson(planning, lookup, u);
  }
  const userId = Number(link.user_id);
  addKey(planning, lookup, u, Number(link.school_id), userId);
  if (link.removed_at !== null) {
    plan.restoreUsers.push({ ref: u.ref, userId, schoolId: Number(link.school_id) });
    lookup.known.set(u.ref, lookup.names.has(userId) ? 'pupil' : 'teacher');
  }
  const current = lookup.names.get(userId);
  if (current !== undefined && current !== u.name)
    plan.renameUsers.push({ ref: u.ref, userId, from: current, to: u.name });
};

/** A person not linked before: a pupil to create, a teacher's account to match, or a refusal. */
const planNewPerson = ({ roster, plan, column, refuse, causeOf }: Planning, lookup: Lookup, u: RosterUser) => {
  const role = u.role ?? lookup.roles.role.get(u.ref) ?? 'pupil';
  const classRef = lookup.roles.firstClass.get(u.ref);
  const subject = { kind: 'person' as const, ref: u.ref, name: u.name };
  const orgRef =
    (u.orgRef !== undefined && lookup.schools.schoolOf.has(u.orgRef) ? u.orgRef : undefined) ??
    (classRef ? orgRefOfClass(roster, classRef, lookup.classes.known, lookup.schools.orgLinks) : undefined);
  if (orgRef === undefined) {
    const cause = u.orgRef === undefined ? undefined : causeOf(u.orgRef);
    return refuse(u.at, column('学校', 'orgSourcedIds'), cause ? 'org_refused' : 'unknown_org', { subject, cause });
  }
  if (role === 'pupil') {
    const grade = classRef ? lookup.classes.known.get(classRef)?.grade : undefined;
    if (grade === undefined) {
      const refusedClass = lookup.roles.refusedClass.get(u.ref);
      const cause = refusedClass === undefined ? undefined : causeOf(refusedClass);
      return refuse(u.at, column('班级', 'enrollments.csv'), cause ? 'class_refused' : 'no_class', { subject, cause });
    }
    plan.newPupils.push({ ref: u.ref, orgRef, name: u.name, grade });
    lookup.known.set(u.ref, 'pupil');
    addKey({ plan }, lookup, u, lookup.schools.schoolOf.get(orgRef) ?? orgRef);
    return;
  }
  const { accounts } = lookup;
  const userId = (u.phone && accounts.byPhone.get(u.phone)) || (u.email && accounts.byEmail.get(u.email)) || undefined;
  if (userId === undefined) return refuse(u.at, column('手机', 'phone'), 'teacher_without_account', { subject });
  if (accounts.pupils.has(userId)) return refuse(u.at, column('角色', 'role'), 'role_mismatch', { subject });
  plan.linkTeachers.push({ ref: u.ref, orgRef, userId, name: u.name });
  lookup.known.set(u.ref, 'teacher');
  addKey({ plan }, lookup, u, lookup.schools.schoolOf.get(orgRef) ?? orgRef, userId);
};

/**
 * A person the roster has not linked whose account the school already keys (they signed in through the
 * school's system first): that account is linked, never a second one made. A pupil account the file
 * calls a teacher is refused, as for a linked teacher.
 */
const planKeyedPerson = (
  { plan, column, refuse }: Planning,
  lookup: Lookup,
  u: RosterUser,
  schoolId: number,
  userId: number,
) => {
  const role = u.role ?? lookup.roles.role.get(u.ref) ?? 'pupil';
  if (role === 'teacher' && lookup.names.has(userId)) {
    return refuse(u.at, column('角色', 'role'), 'role_mismatch', {
      subject: { kind: 'person', ref: u.ref, name: u.name },
    });
  }
  plan.linkPeople.push({ ref: u.ref, schoolId, userId, name: u.name, role });
  lookup.known.set(u.ref, role);
};

/** The school's key of a person the import leaves known, when the school has none for them yet. */
const addKey = (
  { plan }: Pick<Planning, 'plan'>,
  lookup: Lookup,
  u: RosterUser,
  school: number | string,
  userId?: number,
) => {
  if (u.idHash === undefined || lookup.keyed.get(u.ref)?.userId !== undefined) return;
  plan.keys.push({ ref: u.ref, school, idHash: u.idHash, ...(userId === undefined ? {} : { userId }) });
};

/** The org of a class: its row in the file, else the school of its link (as an org ref known to `schoolOf`). */
const orgRefOfClass = (
  roster: Roster,
  classRef: string,
  classKnown: Classes['known'],
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

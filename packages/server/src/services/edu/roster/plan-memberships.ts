/**
 * The fourth step of a plan: the memberships, compared with what the classes and people steps left.
 * A membership linked before is changed when its class, person or role moved, and ended when a delta
 * file says `tobedeleted`, when a bulk file of its school leaves it out, or when its person is
 * removed; an unlinked one is to be added. One naming an unknown class or person, or giving a pupil
 * a teacher's role (or the other way round), is refused; when the class or person is in the file but
 * was refused, the refusal names that row.
 */
import {
  activeRolesInClasses,
  enrollmentLinksOfUsers,
  linksByHash,
  linksOfSchools,
  type RosterLink,
} from '../../../store/edu/roster/roster.ts';
import type { RosterEnrollment } from './model.ts';
import type { Planning } from './plan.ts';
import type { Classes } from './plan-classes.ts';
import type { People } from './plan-people.ts';
import { byHash, type Schools } from './plan-schools.ts';

/** What deciding one membership needs besides the plan. */
interface Lookup {
  classes: Classes;
  people: People;
  /** Active roles in the classes the links name: `classId:userId` → role. */
  memberRoles: Map<string, string>;
  /** Refs already ended, so each is ended once. */
  removing: Set<string>;
}

export const diffMemberships = async (planning: Planning, schools: Schools, classes: Classes, people: People) => {
  const { ctx, roster } = planning;
  const linkList = await linksByHash(
    ctx.db,
    'enrollment',
    roster.enrollments.map((e) => e.ref),
  );
  const bulk = roster.modes.enrollments === 'bulk';
  if (bulk) linkList.push(...(await linksOfSchools(ctx.db, 'enrollment', [...schools.involved])));
  linkList.push(...(await enrollmentLinksOfUsers(ctx.db, [...people.removed])));
  const links = byHash(linkList);
  const memberRoles = await activeRolesInClasses(
    ctx.db,
    [...links.values()].map((l) => Number(l.class_id)),
  );
  const lookup: Lookup = { classes, people, memberRoles, removing: new Set() };
  const inFile = new Set<string>();
  for (const e of roster.enrollments) {
    inFile.add(e.ref);
    planMembership(planning, lookup, e, links.get(e.ref));
  }
  for (const [ref, link] of links) {
    const personRemoved = people.removed.has(Number(link.user_id));
    if (inFile.has(ref) && !personRemoved) continue;
    const bulkGone = bulk && schools.involved.has(Number(link.school_id));
    if (bulkGone || personRemoved) endMembership(planning, lookup, ref, link);
  }
};

const endMembership = ({ plan }: Planning, lookup: Lookup, ref: string, link: RosterLink) => {
  if (lookup.removing.has(ref)) return;
  lookup.removing.add(ref);
  plan.removeEnrollments.push({ ref, classId: Number(link.class_id), userId: Number(link.user_id) });
};

/** One membership of the file: ended, refused, changed, kept as it is, or added. */
const planMembership = (planning: Planning, lookup: Lookup, e: RosterEnrollment, link: RosterLink | undefined) => {
  const { plan, column, refuse, causeOf } = planning;
  if (e.deleted) {
    if (link) endMembership(planning, lookup, e.ref, link);
    return;
  }
  if (!lookup.classes.known.has(e.classRef)) {
    const cause = causeOf(e.classRef);
    refuse(e.at, column('班级', 'classSourcedId'), cause ? 'class_refused' : 'unknown_class', { cause });
    if (link) endMembership(planning, lookup, e.ref, link);
    return;
  }
  const userRole = lookup.people.known.get(e.userRef);
  if (userRole === undefined) {
    const cause = causeOf(e.userRef);
    refuse(e.at, column('学号/编号', 'userSourcedId'), cause ? 'user_refused' : 'unknown_user', { cause });
    if (link) endMembership(planning, lookup, e.ref, link);
    return;
  }
  if ((userRole === 'pupil') !== (e.role === 'pupil')) return refuse(e.at, column('角色', 'role'), 'role_mismatch');
  if (!link) {
    plan.newEnrollments.push({ ref: e.ref, classRef: e.classRef, userRef: e.userRef, role: e.role });
    return;
  }
  const classLink = lookup.classes.links.get(e.classRef);
  const userLink = lookup.people.links.get(e.userRef);
  const classId = classLink ? Number(classLink.class_id) : undefined;
  const userId = userLink ? Number(userLink.user_id) : undefined;
  const same =
    classId === Number(link.class_id) &&
    userId === Number(link.user_id) &&
    lookup.memberRoles.get(`${classId}:${userId}`) === e.role;
  if (!same) {
    plan.changeEnrollments.push({
      ref: e.ref,
      classRef: e.classRef,
      userRef: e.userRef,
      role: e.role,
      from: { classId: Number(link.class_id), userId: Number(link.user_id) },
    });
  }
};

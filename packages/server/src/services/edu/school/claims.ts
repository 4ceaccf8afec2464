/**
 * What the `edu` scope tells the platform's products: the user's schools and classes with roles
 * (approved and active memberships only), and `managed_by_school` — true for an account a school
 * created that has no personal phone yet, so a community site keeps it out of public following,
 * liking and reporting until the school or a guardian allows it.
 */
import type { Context } from '../../../context.ts';
import { classesOfUser } from '../../../store/edu/school/classes.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { schoolsOfUser } from '../../../store/edu/school/schools.ts';
import type { User } from '../../../store/schema.ts';

export interface EduClaim {
  schools: { id: number; name: string; roles: string[] }[];
  classes: { id: number; school_id: number; name: string; grade: number; school_year: string; roles: string[] }[];
}

/**
 * The `edu` claim as the ID token carries it: ids and roles only. The ID token travels in redirects
 * and cookies, so names stay at userinfo (and in the account API), where a product asks for them.
 */
export interface EduIdTokenClaim {
  schools: { id: number; roles: string[] }[];
  classes: { id: number; school_id: number; roles: string[] }[];
}

export const idTokenEduClaim = (edu: EduClaim): EduIdTokenClaim => ({
  schools: edu.schools.map(({ id, roles }) => ({ id, roles })),
  classes: edu.classes.map(({ id, school_id, roles }) => ({ id, school_id, roles })),
});

export const eduClaims = async (ctx: Pick<Context, 'db'>, user: Pick<User, 'id' | 'phone'>) => {
  const [schools, classes, pupil] = await Promise.all([
    schoolsOfUser(ctx.db, user.id),
    classesOfUser(ctx.db, user.id),
    findPupilAccount(ctx.db, user.id),
  ]);
  const bySchool = new Map<number, EduClaim['schools'][number]>();
  for (const s of schools.filter((m) => m.status === 'approved')) {
    const entry = bySchool.get(Number(s.id)) ?? { id: Number(s.id), name: s.name, roles: [] };
    entry.roles.push(s.role);
    bySchool.set(entry.id, entry);
  }
  const edu: EduClaim = {
    schools: [...bySchool.values()],
    classes: classes
      .filter((c) => c.status === 'active' && c.archived_at === null)
      .map((c) => ({
        id: Number(c.id),
        school_id: Number(c.school_id),
        name: c.name,
        grade: Number(c.grade),
        school_year: c.school_year,
        roles: [c.role],
      })),
  };
  return { edu, managed_by_school: pupil !== undefined && !user.phone };
};

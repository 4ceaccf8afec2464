/**
 * The education layer as a site's backend sees it: the `edu` scope's claims (userinfo or ID token) and the
 * webhook events of classes and pupil accounts, typed. `readEduClaims` checks the shape, so a
 * site's rule ("keep school-managed accounts out of public following, liking and reporting") rests
 * on a checked value, never on a guess.
 */

export type EduSchoolRole = 'school_admin' | 'teacher';
export type EduClassRole = 'head_teacher' | 'teacher' | 'pupil';

/**
 * The `edu` scope's claims. Userinfo names every school and class; the ID token carries ids and roles
 * only (names, grade and school year are absent there), so those fields are optional.
 */
export interface EduClaims {
  schools: { id: number; name?: string; roles: EduSchoolRole[] }[];
  classes: {
    id: number;
    school_id: number;
    name?: string;
    grade?: number;
    school_year?: string;
    roles: EduClassRole[];
  }[];
  /** An account a school created that has no personal phone yet: keep it out of public interactions. */
  managedBySchool: boolean;
}

/** The webhook events of the education layer (`data` besides `user_id`, the acting user, and `product`). */
export type EduWebhookEvent =
  | {
      type: 'class.changed';
      data: {
        change: 'created' | 'updated' | 'archived' | 'promoted';
        class: { id: number; school_id: number; name: string; grade: number; school_year: string; archived: boolean };
      };
    }
  | {
      type: 'class.membership.changed';
      data: { class_id?: number; from_class_id?: number; to_class_id?: number; school_id?: number; user_ids: number[] };
    }
  | { type: 'pupils.created'; data: { school_id: number; class_id: number; user_ids: number[] } };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isIdList = (value: unknown) => Array.isArray(value) && value.every((v) => Number.isSafeInteger(v));
const hasRoles = (value: Record<string, unknown>) =>
  Array.isArray(value.roles) && value.roles.every((r) => typeof r === 'string');
const optionalName = (value: Record<string, unknown>) => value.name === undefined || typeof value.name === 'string';

/** The `edu` claims of a userinfo answer or an ID token's payload; undefined when the scope was not granted or the shape is wrong. */
export const readEduClaims = (claims: Record<string, unknown>): EduClaims | undefined => {
  const { edu, managed_by_school } = claims;
  if (!isObject(edu) || typeof managed_by_school !== 'boolean') return undefined;
  const { schools, classes } = edu;
  if (!Array.isArray(schools) || !Array.isArray(classes)) return undefined;
  const ok =
    schools.every((s) => isObject(s) && Number.isSafeInteger(s.id) && optionalName(s) && hasRoles(s)) &&
    classes.every(
      (c) =>
        isObject(c) &&
        Number.isSafeInteger(c.id) &&
        Number.isSafeInteger(c.school_id) &&
        optionalName(c) &&
        hasRoles(c),
    );
  return ok ? ({ schools, classes, managedBySchool: managed_by_school } as EduClaims) : undefined;
};

/** Whether the user teaches the class (as its head teacher or a co-teacher), by the claims alone. */
export const isTeacherOf = (claims: EduClaims, classId: number): boolean =>
  claims.classes.some((c) => c.id === classId && c.roles.some((role) => role === 'head_teacher' || role === 'teacher'));

/** Whether a user's webhook names the education layer's events, with `data` typed by `type`. */
export const isEduEvent = (event: { type: string; data: Record<string, unknown> }): event is EduWebhookEvent =>
  (event.type === 'class.changed' && isObject(event.data.class)) ||
  ((event.type === 'class.membership.changed' || event.type === 'pupils.created') && isIdList(event.data.user_ids));

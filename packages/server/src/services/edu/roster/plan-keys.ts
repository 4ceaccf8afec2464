/**
 * Part of the people step: the school's keys of the file's people (../school/person-keys.ts). A person
 * the roster has not linked may already have an account that the school keys to them (a pupil who
 * signed in through the school's CAS with the same 学号 before the roster named them): the import
 * links that account rather than making a second one. A person who ends up known without a key (made
 * now, or imported before keys were one per school) is given one.
 */
import type { Context } from '../../../context.ts';
import { keyedUsers } from '../../../store/edu/school/person-keys.ts';
import { schoolPersonKey } from '../school/person-keys.ts';
import type { RosterUser } from './model.ts';

/** A person's school key and the account it names now (undefined: none yet). */
export interface KeyedPerson {
  school: number;
  userId: number | undefined;
}

/**
 * The keys of the people whose school exists (`schoolOf` answers its id) and whose identifier the file
 * gives, read a school at a time: ref → the school and the account keyed there.
 */
export const keyedPeople = async (
  ctx: Context,
  users: RosterUser[],
  schoolOf: (u: RosterUser) => number | string | undefined,
): Promise<Map<string, KeyedPerson>> => {
  const bySchool = new Map<number, Map<string, string>>();
  for (const u of users) {
    const school = schoolOf(u);
    if (u.deleted || u.idHash === undefined || typeof school !== 'number') continue;
    const keys = bySchool.get(school) ?? new Map<string, string>();
    keys.set(u.ref, schoolPersonKey(ctx.keys.identifiers, school, u.idHash));
    bySchool.set(school, keys);
  }
  const keyed = new Map<string, KeyedPerson>();
  for (const [school, keys] of bySchool) {
    const found = await keyedUsers(ctx.db, school, [...keys.values()]);
    for (const [ref, key] of keys) keyed.set(ref, { school, userId: found.get(key) });
  }
  return keyed;
};

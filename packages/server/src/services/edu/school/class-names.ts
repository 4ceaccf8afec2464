/**
 * A class's name is unique in its school and school year (a unique index, migration 047): a second
 * 三年级二班 of 2026-2027 is refused with E_18 CLASS_NAME_TAKEN, by whichever way it would come (opened,
 * renamed, promoted into a year that has one, a roster import). Where a school's system names a class
 * by its name alone (a CAS or SAML class attribute), the name means the class of the latest school year.
 */
import { ApiError } from '../../../errors.ts';
import { isUniqueViolation } from '../../../store/account/users.ts';

export const CLASS_NAME_TAKEN = 'Another class of the school has this name in this school year.';

/** A write that broke the unique name answers E_18; anything else goes on as it was. */
export const classNameClash = (error: unknown): never => {
  if (isUniqueViolation(error)) throw new ApiError('E_18', CLASS_NAME_TAKEN);
  throw error;
};

interface NamedClass {
  id: number;
  name: string;
  school_year: string;
  archived_at: number | null;
}

/**
 * For each name, the class of the latest school year that bears it (archived ones left out): the class
 * a name given without a year means. School years are written alike within a school (`2026-2027`), so
 * the latest sorts last; between equal years the newest row wins.
 */
export const currentClassesNamed = <C extends NamedClass>(classes: C[], names: string[]): C[] => {
  const chosen = new Map<string, C>();
  for (const c of classes) {
    if (c.archived_at !== null || !names.includes(c.name)) continue;
    const before = chosen.get(c.name);
    const later =
      before === undefined ||
      c.school_year > before.school_year ||
      (c.school_year === before.school_year && Number(c.id) > Number(before.id));
    if (later) chosen.set(c.name, c);
  }
  return [...chosen.values()];
};

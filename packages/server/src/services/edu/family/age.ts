/**
 * Age bands. Self sign-up asks the year and month of birth (nothing finer: no day, never an ID-card
 * number for a child); a pupil a teacher created takes the band of the class's grade. The band is
 * what products see (`age_band`); a child under 14 needs a guardian's consent (consent.ts).
 */
import type { AgeBand, ConsentState } from '@edupass/protocol';
import { invalidRequest } from '../../../errors.ts';
import type { User } from '../../../store/schema.ts';

/** Bands under this age need a guardian's consent (PIPL art. 31). */
export const CONSENT_AGE = 14;
/** The oldest age a sign-up may answer; anything earlier is a slip of the finger. */
const OLDEST = 120;

const YEAR_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const bandOfAge = (age: number): AgeBand =>
  age < 8 ? 'under_8' : age < CONSENT_AGE ? '8_13' : age < 16 ? '14_15' : age < 18 ? '16_17' : 'adult';

/**
 * Whole years of age at `now` of someone born in that month. The day is not asked, so a birthday in
 * the current month counts as not yet reached: a child is never taken for older than they are.
 */
export const ageAt = (yearMonth: string, now: number): number => {
  const [, year, month] = YEAR_MONTH.exec(yearMonth) ?? [];
  const today = new Date(now);
  const monthsOld = (today.getUTCFullYear() - Number(year)) * 12 + (today.getUTCMonth() + 1 - Number(month));
  return monthsOld < 0 ? -1 : Math.max(0, Math.floor((monthsOld - 1) / 12));
};

/** The answer of the sign-up question, checked: E_1 for no month of the calendar, a future or an implausible one. */
export const checkBirthYearMonth = (value: string, now: number): string => {
  if (!YEAR_MONTH.test(value)) throw invalidRequest('birth_year_month must be a year and month: YYYY-MM.');
  const age = ageAt(value, now);
  if (age < 0 || age > OLDEST) throw invalidRequest('birth_year_month is not a month a person could be born in.');
  return value;
};

/**
 * The band of a class's grade, taken young: grade 1 starts at 6 or 7, so the band is that of the
 * youngest pupils a grade usually has (grade 8, ages 13–14, is still 8–13). Grade 0 is kindergarten.
 */
export const bandOfGrade = (grade: number): AgeBand => bandOfAge(grade + 5);

export const needsConsent = (band: AgeBand | null) => band === 'under_8' || band === '8_13';

/** The age columns of a new account: the band and, under 14, a consent to wait for (or the school's). */
export const ageColumns = (
  band: AgeBand | null,
  birthYearMonth: string | null,
  consentBy: 'guardian' | 'school' = 'guardian',
): Pick<User, 'age_band' | 'birth_year_month' | 'consent_state'> => ({
  age_band: band,
  birth_year_month: birthYearMonth,
  consent_state: needsConsent(band) ? ((consentBy === 'school' ? 'school' : 'pending') satisfies ConsentState) : null,
});

/** The columns of a self sign-up's answer (none given: age unknown, see docs/education.md). */
export const signUpAgeColumns = (birthYearMonth: string | undefined, now: number) => {
  if (birthYearMonth === undefined) return ageColumns(null, null);
  const checked = checkBirthYearMonth(birthYearMonth, now);
  return ageColumns(bandOfAge(ageAt(checked, now)), checked);
};

/** The band today: from the year and month where known (children grow up), else the stored one. */
export const currentBand = (user: Pick<User, 'age_band' | 'birth_year_month'>, now: number): AgeBand | null =>
  user.birth_year_month ? bandOfAge(ageAt(user.birth_year_month, now)) : user.age_band;

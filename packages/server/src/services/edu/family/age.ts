/**
 * Age bands. Self sign-up asks the year and month of birth (nothing finer: no day, never an ID-card
 * number for a child); a pupil a teacher created takes the band of the class's grade. The band is
 * what products see (`age_band`); a child under 14 needs a guardian's consent (consent.ts).
 */
import { type AgeBand, type ConsentState, DAY_MS } from '@edupass/protocol';
import type { Config } from '../../../config/config.ts';
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

/** 幼儿园 and 大学/成人: grades of a class only where the operator allows them (EDU_CLASS_EXTRA_GRADES). */
export const KINDERGARTEN_GRADE = 0;
export const ADULT_GRADE = 13;

/**
 * The grades a class may have, in order: 1–12 (一年级…六年级, 初一…初三, 高一…高三) always; 0 (幼儿园)
 * and 13 (大学/成人, whose pupils are adults) only where the operator allows them. Nothing else is a
 * grade: a 13 typed by a slip is not an adult class in a primary school.
 */
export const classGrades = (config: Pick<Config, 'eduClassExtraGrades'>): number[] => [
  ...(config.eduClassExtraGrades.includes('kindergarten') ? [KINDERGARTEN_GRADE] : []),
  ...Array.from({ length: 12 }, (_, i) => i + 1),
  ...(config.eduClassExtraGrades.includes('adult') ? [ADULT_GRADE] : []),
];

/** The grade, when it is one of `classGrades`; E_1 naming the grades there are otherwise. */
export const checkClassGrade = (config: Pick<Config, 'eduClassExtraGrades'>, grade: number): number => {
  const grades = classGrades(config);
  if (grades.includes(grade)) return grade;
  const names = [
    ...(grades.includes(KINDERGARTEN_GRADE) ? ['0 (幼儿园)'] : []),
    '1 to 6 (一年级 to 六年级)',
    '7 to 9 (初一 to 初三)',
    '10 to 12 (高一 to 高三)',
    ...(grades.includes(ADULT_GRADE) ? ['13 (大学/成人, adults)'] : []),
  ];
  throw invalidRequest(`grade must be one of the grade list: ${names.join(', ')}.`);
};

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

/**
 * A school-managed pupil's band and consent once the class's grade changed (classes.ts): the new
 * grade's band; becoming under 14, the consent rules of a new pupil (the school's agreement where one
 * is in force, else a guardian's consent to wait for, counted from `now`); becoming 14 or over, nothing
 * left to wait for. A guardian's decision (granted, withdrawn) stays as the guardian made it.
 */
export const gradeBandColumns = (
  band: AgeBand,
  current: ConsentState | null,
  consentBy: 'guardian' | 'school',
  now: number,
): Pick<User, 'age_band' | 'consent_state'> & { consent_pending_since?: number | null } => {
  if (needsConsent(band)) {
    if (current !== null) return { age_band: band, consent_state: current };
    return consentBy === 'school'
      ? { age_band: band, consent_state: 'school', consent_pending_since: null }
      : { age_band: band, consent_state: 'pending', consent_pending_since: now };
  }
  if (current === 'pending' || current === 'school') {
    return { age_band: band, consent_state: null, consent_pending_since: null };
  }
  return { age_band: band, consent_state: current };
};

/** The columns of a self sign-up's answer (none given: age unknown, see docs/education.md). */
export const signUpAgeColumns = (birthYearMonth: string | undefined, now: number) => {
  if (birthYearMonth === undefined) return ageColumns(null, null);
  const checked = checkBirthYearMonth(birthYearMonth, now);
  return ageColumns(bandOfAge(ageAt(checked, now)), checked);
};

/** The band today: from the year and month where known (children grow up), else the stored one. */
export const currentBand = (user: Pick<User, 'age_band' | 'birth_year_month'>, now: number): AgeBand | null =>
  user.birth_year_month ? bandOfAge(ageAt(user.birth_year_month, now)) : user.age_band;

/**
 * When an account waiting for a guardian's consent is deleted if none comes (the sweep in consent.ts):
 * EDU_CONSENT_PENDING_DAYS after the wait began (the sign-up, or the grade that made the pupil under
 * 14). Null for an account not waiting.
 */
export const deletedWithoutConsentAt = (
  config: Pick<Config, 'eduConsentPendingDays'>,
  user: Pick<User, 'consent_state' | 'consent_pending_since' | 'created_at'>,
): number | null =>
  user.consent_state === 'pending'
    ? Number(user.consent_pending_since ?? user.created_at) + config.eduConsentPendingDays * DAY_MS
    : null;

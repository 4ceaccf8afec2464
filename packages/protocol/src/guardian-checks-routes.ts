/**
 * What stands behind a child's consent besides the guardian's phone: the optional adult check of the
 * guardian through a real-name vendor (REALNAME_PROVIDER), the consent text an operator edits, and a
 * school's agreement for the pupils its teachers create. docs/education.md, "Adult check" and
 * "School agreements"; docs/operators.md, "Children and guardians".
 */
import { type Answer, integer, list, NO_CONTENT, nullable, object, oneOf, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { eduRoute } from './edu-routes.ts';
import { ADULT_CHECK_STATES, consentTextAnswer } from './guardian-routes.ts';
import { operatorRoute as admin } from './operator-route.ts';

/**
 * What an adult check found: `adult` (the name and ID number match, and the number's birth date is
 * 18 years back or more), `minor` (they match, under 18), `mismatch`, `no_record` (the vendor's
 * register has no such number).
 */
export const ADULT_CHECK_RESULTS = ['adult', 'minor', 'mismatch', 'no_record'] as const;
export type AdultCheckResult = (typeof ADULT_CHECK_RESULTS)[number];

export const adultCheckAnswer = object({
  /** `off` when the operator has not turned the check on. */
  state: oneOf(...ADULT_CHECK_STATES),
  /** The last check's result and time (unix ms), if any. */
  result: nullable(oneOf(...ADULT_CHECK_RESULTS)),
  checked_at: nullable(integer()),
});

export const schoolAgreementAnswer = object({
  id: integer(),
  school_id: integer(),
  /** Who signed for the school (a name and role, as the paper says). */
  signatory: text(),
  /** The day it was signed, `YYYY-MM-DD`. */
  signed_on: text(),
  /** The consent text's version the agreement was made under. */
  text_version: integer(),
  /** The operator who recorded it, and when (unix ms). */
  recorded_by: integer(),
  recorded_at: integer(),
  /** When an operator ended it (unix ms); null while it stands. */
  ended_at: nullable(integer()),
  /**
   * The client ids of the third-party applications it covers: while it stands they receive of a pupil
   * under it what the operator's own products do (docs/education.md, "What applications receive").
   */
  applications: list(text()),
});

/** The most third-party applications one school agreement names. */
export const AGREEMENT_APPLICATIONS_MAX = 50;

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const elements = { type: 'any', required: true, multiline: true } as const;

export const ownAdultCheckRoute = eduRoute('GET', 'me/adult-check', 'token');
export const adultCheckRoute = eduRoute('POST', 'me/adult-check', 'token', {
  body: {
    name: { type: 'string', required: true, maxLength: 64 },
    id_number: { type: 'string', required: true, maxLength: 32 },
  },
});

/** The guardian's adult check in the route table (routes.ts). */
export const adultCheckTable = {
  ownAdultCheck: described(
    ownAdultCheckRoute,
    "Whether the caller must pass the adult check before consenting, and the last check's result",
    adultCheckAnswer,
  ),
  adultCheck: described(
    adultCheckRoute,
    'The caller is checked as an adult by the real-name vendor (name and ID number, neither kept)',
    adultCheckAnswer,
  ),
};

/** The operator's side: the consent text and schools' agreements (`/admin/edu/…`). */
export const consentAdminRoutes = {
  getConsentText: admin(
    'GET',
    'edu/consent-text',
    'The consent text guardians read now, with its version',
    consentTextAnswer,
  ),
  saveConsentText: admin(
    'PUT',
    'edu/consent-text',
    'Save the consent text as its next version: every element in both languages',
    consentTextAnswer,
    { body: { 'zh-CN': elements, en: elements } },
  ),
  listSchoolAgreements: admin(
    'GET',
    'edu/schools/:id/agreements',
    "A school's agreements for the pupils its teachers create, the newest first",
    list(schoolAgreementAnswer),
    { params: { id } },
  ),
  recordSchoolAgreement: admin(
    'POST',
    'edu/schools/:id/agreements',
    "Record a school's agreement (who signed, when, the third-party applications it covers) under the current consent text",
    schoolAgreementAnswer,
    {
      params: { id },
      body: {
        signatory: { type: 'string', required: true, maxLength: 128 },
        signed_on: { type: 'string', required: true, maxLength: 10 },
        applications: { type: 'string[]', required: false, maxLength: AGREEMENT_APPLICATIONS_MAX },
      },
    },
  ),
  endSchoolAgreement: admin(
    'POST',
    'edu/schools/:id/agreements/end',
    "End a school's agreement: pupils created afterwards wait for a guardian's consent",
    NO_CONTENT,
    { params: { id } },
  ),
} as const;

export type AdultCheck = Answer<typeof adultCheckAnswer>;
export type SchoolAgreement = Answer<typeof schoolAgreementAnswer>;

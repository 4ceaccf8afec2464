/**
 * One pupil, one account: a school admin sees the pupils of the school who may be one person with two
 * accounts (the same name on two accounts, say a roster's and one the school's CAS made before the
 * keys were one per school) and merges two into one. docs/education.md, "One pupil, one account".
 */
import { type Answer, boolean, integer, list, nullable, object, oneOf, text } from './answer-schema.ts';
import { described } from './described-route.ts';
import { classAnswer } from './edu-answers.ts';
import { eduRoute as route } from './edu-routes.ts';

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/**
 * Why two accounts cannot be merged (E_19 ACCOUNTS_NOT_MERGEABLE names one in its message), each with
 * its sentence; `as_end` ones are about the account that would end only (keeping it instead may do).
 */
export const MERGE_REFUSALS = {
  same_account: 'Choose two different accounts.',
  deleting: 'The account is waiting to be deleted.',
  staff: 'The account is a teacher’s or a school admin’s.',
  guardian: 'The account is a guardian of a child.',
  adult: 'The account is an adult’s.',
  other_school: 'The account belongs to another school as well.',
  own_sign_in:
    'The account has a way to sign in that its owner chose (a phone, an e-mail, WeChat or QQ, a passkey): keep that one instead.',
} as const;
export type MergeRefusal = keyof typeof MERGE_REFUSALS;

const mergeCandidate = object({
  user_id: integer(),
  name: text(),
  /** The school's username ('' when the account has none). */
  username: text(),
  classes: list(classAnswer),
  created_at: integer(),
  /** Why this account cannot stay (keep); null: it can. */
  refused_as_keep: nullable(text()),
  /** Why this account cannot end (be merged into the other); null: it can. */
  refused_as_end: nullable(text()),
  /** It has a way in its owner chose (phone, e-mail, WeChat/QQ, passkey). */
  own_sign_in: boolean(),
});

/**
 * What says a group's accounts may be one pupil: `same_name`, or `name_written_alike` (the same name
 * with other spaces or full-width characters); `same_birth_month` when two or more share one;
 * `same_school_number` when one identifier of the school (学号, sourcedId, the school's sign-in) names
 * two of them, keyed before and after the school's identifiers were one key (a group of its own when
 * their names differ).
 */
export const DUPLICATE_REASONS = ['same_name', 'name_written_alike', 'same_birth_month', 'same_school_number'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export const pupilDuplicatesAnswer = object({
  /**
   * Pupils of the school sharing one name as people write it, or one school number, two or more
   * accounts each (at most 100 groups; those with one school number first, then a shared birth month). `name` is the first account's; each account has its own.
   */
  groups: list(object({ name: text(), reasons: list(oneOf(...DUPLICATE_REASONS)), accounts: list(mergeCandidate) })),
});

export const pupilMergeAnswer = object({ kept: integer(), ended: integer() });

export const pupilDuplicatesRoute = route('GET', 'schools/:id/pupil-duplicates', 'token', { params: { id } });
export const mergePupilsRoute = route('POST', 'schools/:id/pupils/merge', 'token', {
  params: { id },
  body: { keep: id, end: id },
});

export const pupilMergeTable = {
  pupilDuplicates: described(
    pupilDuplicatesRoute,
    'A school admin: pupils of the school sharing one name on several accounts, and whether each may stay or end',
    pupilDuplicatesAnswer,
  ),
  mergePupils: described(
    mergePupilsRoute,
    "A school admin merges two accounts of one pupil: the kept one takes the other's classes, guardians, consent, cards and school keys; the other ends",
    pupilMergeAnswer,
  ),
};

export type PupilDuplicates = Answer<typeof pupilDuplicatesAnswer>;
export type MergeCandidate = PupilDuplicates['groups'][number]['accounts'][number];

/**
 * `@edupass/account/edu`: what the account knows of the user's schools and classes, typed. An entry of
 * its own (like `./sessions`): the main entry stays within its size budget.
 */
export type {
  ClassRole as EduClassRole,
  EduMemberships,
  GuardiansToConfirm,
  MergeCandidate,
  OwnCards,
  PupilDuplicates,
  SchoolRole as EduSchoolRole,
  SchoolSearch,
} from '@edupass/protocol';
export * from './calls/edu.ts';

/**
 * Guardians linked to children and minor mode: a child (or a pupil's teacher) opens a one-time link
 * code; a guardian links with it, sees each child's record, consent, devices and minor mode, makes the
 * limits stricter and unlinks; a child sees who is linked. docs/education.md, "Guardians and minor mode".
 */
import {
  type Answer,
  boolean,
  integer,
  list,
  NO_CONTENT as none,
  nullable,
  object,
  oneOf,
  text,
} from './answer-schema.ts';
import { described } from './described-route.ts';
import { CONSENT_STATES } from './edu-answers.ts';
import { eduRoute as route } from './edu-routes.ts';
import { AGE_BANDS } from './guardian-routes.ts';
import { sessionSummaryAnswer } from './session-answers.ts';

/** The OpenID Connect scope that releases the minor-mode claims (MINOR_CLAIMS). */
export const MINOR_SCOPE = 'minor';
/** The claims of the `minor` scope, in ID tokens, userinfo and the account API's profile. */
export const MINOR_CLAIMS = [
  'age_band',
  'minor_mode',
  'daily_limit_minutes',
  'curfew',
  'guardian_linked',
  'consent',
] as const;

/** What products learn of a person's minor mode; the limits are null for an adult or an unknown age. */
export const minorModeAnswer = object({
  age_band: nullable(oneOf(...AGE_BANDS)),
  /** True for a person under 18: the product applies the limits below. */
  minor_mode: boolean(),
  daily_limit_minutes: nullable(integer()),
  /** `HH:MM-HH:MM` in China Standard Time (may cross midnight): no use in that window. */
  curfew: nullable(text()),
  guardian_linked: boolean(),
  consent: nullable(oneOf(...CONSENT_STATES)),
});

export const guardianCodeAnswer = object({
  /** Eight letters and digits a guardian types (or scans as `<PUBLIC_URL>/guardian#<code>`); works once. */
  code: text(),
  /** Milliseconds since the epoch: the code works until then. */
  expires_at: integer(),
});

/** A guardian linked to a child: their name, the relation they gave, since when (milliseconds). */
const linkedGuardian = object({ id: integer(), name: text(), relation: text(), linked_at: integer() });

export const ownGuardiansAnswer = object({ guardians: list(linkedGuardian) });

export const linkedChildAnswer = object({
  child_id: integer(),
  /**
   * `linked`: the caller is the child's guardian now (the family's first link). `pending`: the child
   * has a guardian, who approves or refuses; until then the caller sees nothing of the child.
   */
  state: oneOf('linked', 'pending'),
  /** For `pending`: milliseconds since the epoch when it is approved if no guardian decides. */
  opens_at: nullable(integer()),
});

/** Links waiting for a decision: those on the caller's children, and those the caller asked for. */
export const guardianRequestsAnswer = object({
  to_decide: list(
    object({
      id: integer(),
      child: object({ id: integer(), nickname: text() }),
      /** Who asks: their name, their phone masked (138****1234), the relation they gave. */
      name: text(),
      phone: text(),
      relation: text(),
      /** The pupil's school when a teacher there opened the code (a letter, the login card); null: the child's own code. */
      school: nullable(text()),
      asked_at: integer(),
      /** Approved by itself then, if no guardian decides. */
      opens_at: integer(),
    }),
  ),
  mine: list(
    object({
      id: integer(),
      relation: text(),
      state: oneOf('pending', 'approved', 'refused'),
      asked_at: integer(),
      opens_at: integer(),
      decided_at: nullable(integer()),
    }),
  ),
});

export const childRecordAnswer = object({
  child: object({
    id: integer(),
    nickname: text(),
    /** The name the child's school gave the account (its teacher typed it), when a school made it. */
    pupil_name: nullable(text()),
    fullname: text(),
    username: text(),
    birth_year_month: text(),
    age_band: nullable(oneOf(...AGE_BANDS)),
    consent_state: nullable(oneOf(...CONSENT_STATES)),
    frozen: boolean(),
    /** When a deletion a guardian asked for waits: when the account is erased (a guardian may stop it until then). */
    guardian_deletion_at: nullable(integer()),
    relation: text(),
  }),
  consents: list(
    object({
      /** granted, refused or withdrawn. */
      decision: text(),
      /** sms or school. */
      method: text(),
      text_version: integer(),
      scopes: list(text()),
      at: integer(),
    }),
  ),
  guardians: list(linkedGuardian),
  devices: list(sessionSummaryAnswer),
  minor: minorModeAnswer,
  /** The limits the operator set for the child's band: a guardian may only make them stricter. */
  defaults: object({ daily_limit_minutes: nullable(integer()), curfew: nullable(text()) }),
});

const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const childParams = { id } as const;

export const ownMinorModeRoute = route('GET', 'me/minor', 'token');
export const openGuardianCodeRoute = route('POST', 'me/guardian-code', 'token');
export const ownGuardiansRoute = route('GET', 'me/guardians', 'token');
export const pupilGuardianCodeRoute = route('POST', 'classes/:id/pupils/:user_id/guardian-code', 'token', {
  params: { id, user_id: id },
});
export const linkChildRoute = route('POST', 'guardian/link', 'token', {
  body: {
    code: { type: 'string', required: true, maxLength: 32 },
    relation: { type: 'string', required: true, maxLength: 16 },
  },
});
export const guardianRequestsRoute = route('GET', 'guardian/requests', 'token');
export const approveGuardianRequestRoute = route('POST', 'guardian/requests/:id/approve', 'token', {
  params: childParams,
  status: 204,
});
export const refuseGuardianRequestRoute = route('POST', 'guardian/requests/:id/refuse', 'token', {
  params: childParams,
  status: 204,
});
export const childRecordRoute = route('GET', 'guardian/children/:id', 'token', { params: childParams });
export const unlinkChildRoute = route('POST', 'guardian/children/:id/unlink', 'token', {
  params: childParams,
  status: 204,
});
export const endChildDeviceRoute = route('POST', 'guardian/children/:id/devices/:key/end', 'token', {
  params: { id, key: { type: 'string', required: true, maxLength: 128 } },
  status: 204,
});
export const deleteChildAccountRoute = route('POST', 'guardian/children/:id/delete', 'token', {
  params: childParams,
  status: 204,
});
export const keepChildAccountRoute = route('POST', 'guardian/children/:id/delete/cancel', 'token', {
  params: childParams,
  status: 204,
});
export const setChildMinorModeRoute = route('PUT', 'guardian/children/:id/minor', 'token', {
  params: childParams,
  body: {
    /** Absent: the operator's default for the child's band. */
    daily_limit_minutes: { type: 'integer', required: false, min: 0, max: 1440 },
    /** Absent: the operator's curfew. */
    curfew: { type: 'string', required: false, maxLength: 16 },
  },
});

/** Guardian links and minor mode in the route table (routes.ts). */
export const guardianLinkTable = {
  ownMinorMode: described(ownMinorModeRoute, "The caller's minor mode (what products are told)", minorModeAnswer),
  openGuardianCode: described(
    openGuardianCodeRoute,
    'A child opens a one-time code a guardian links with',
    guardianCodeAnswer,
  ),
  ownGuardians: described(ownGuardiansRoute, "The guardians linked to the caller's account", ownGuardiansAnswer),
  pupilGuardianCode: described(
    pupilGuardianCodeRoute,
    "A pupil's teacher opens a one-time guardian link code (for a letter or card)",
    guardianCodeAnswer,
  ),
  linkChild: described(
    linkChildRoute,
    "A guardian links to a child with a one-time code (a request the child's guardians decide, once the child has one)",
    linkedChildAnswer,
  ),
  guardianRequests: described(
    guardianRequestsRoute,
    "Guardian links waiting for a decision: on the caller's children, and the caller's own",
    guardianRequestsAnswer,
  ),
  approveGuardianRequest: described(
    approveGuardianRequestRoute,
    "A child's guardian approves another adult's link: they become a guardian",
    none,
  ),
  refuseGuardianRequest: described(
    refuseGuardianRequestRoute,
    "A child's guardian refuses another adult's link: nothing is linked",
    none,
  ),
  childRecord: described(
    childRecordRoute,
    "A linked guardian reads a child's record, consent, devices and minor mode",
    childRecordAnswer,
  ),
  unlinkChild: described(unlinkChildRoute, 'A guardian removes their link to a child', none),
  endChildDevice: described(endChildDeviceRoute, "A linked guardian signs a child's device out", none),
  deleteChildAccount: described(
    deleteChildAccountRoute,
    "A linked guardian deletes a child's account (frozen now, erased after the grace period)",
    none,
  ),
  keepChildAccount: described(
    keepChildAccountRoute,
    'A linked guardian stops the deletion a guardian asked for, while its grace period runs',
    none,
  ),
  setChildMinorMode: described(
    setChildMinorModeRoute,
    "A linked guardian sets a child's daily minutes and curfew (stricter than the operator's)",
    minorModeAnswer,
  ),
};

export type MinorMode = Answer<typeof minorModeAnswer>;
export type ChildRecord = Answer<typeof childRecordAnswer>;
export type OwnGuardians = Answer<typeof ownGuardiansAnswer>;
export type GuardianCode = Answer<typeof guardianCodeAnswer>;
export type LinkedChild = Answer<typeof linkedChildAnswer>;
export type GuardianRequests = Answer<typeof guardianRequestsAnswer>;

/**
 * Children and their guardians: the age asked at sign-up, guardian consent for children under 14
 * (a one-time link the child hands to a guardian, who signs in with their own phone and decides),
 * and the guardian's view of linked children. docs/education.md, "Children and guardians".
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
import { eduRoute } from './edu-routes.ts';
// In a module of its own: the web client's first screen then carries none of the table below.
import { ownConsentRoute } from './own-consent-route.ts';

/** Age bands (the 2024 minor-mode guide's age groups, with adults apart). */
export const AGE_BANDS = ['under_8', '8_13', '14_15', '16_17', 'adult'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** The elements a consent text must say (the 2019 rules on children's personal information, art. 10). */
export const CONSENT_ELEMENTS = ['purpose', 'data', 'storage', 'security', 'refusal', 'rights'] as const;
export type ConsentElement = (typeof CONSENT_ELEMENTS)[number];

/** The relations a guardian may give. */
export const GUARDIAN_RELATIONS = ['mother', 'father', 'grandparent', 'other'] as const;
export type GuardianRelation = (typeof GUARDIAN_RELATIONS)[number];

/** Whether a guardian must pass the adult check before consenting: `off`, `needed` or `passed` (the caller has). */
export const ADULT_CHECK_STATES = ['off', 'needed', 'passed'] as const;
export type AdultCheckState = (typeof ADULT_CHECK_STATES)[number];

/** The OpenID Connect scope of a product's community features, withheld while consent is pending. */
export const COMMUNITY_SCOPE = 'community';

const consentElements = object({
  purpose: text(),
  data: text(),
  storage: text(),
  security: text(),
  refusal: text(),
  rights: text(),
});

/** The consent text an operator edits: both languages, one version for both. */
export const consentTextAnswer = object({
  version: integer(),
  'zh-CN': consentElements,
  en: consentElements,
});

export const ownConsentAnswer = object({
  age_band: nullable(oneOf(...AGE_BANDS)),
  consent_state: nullable(oneOf(...CONSENT_STATES)),
});

export const consentLinkAnswer = object({
  /** The secret the guardian's page takes (the link is `<PUBLIC_URL>/consent#<link>`). */
  link: text(),
  /** Milliseconds since the epoch: the link works once, until then. */
  expires_at: integer(),
});

export const consentRequestAnswer = object(
  {
    child: object({ nickname: text(), age_band: nullable(oneOf(...AGE_BANDS)) }),
    text: consentTextAnswer,
    /** What consenting grants the child's account. */
    scopes: list(text()),
    /** Whether the guardian must pass the adult check first (guardian-checks-routes.ts). */
    adult_check: oneOf(...ADULT_CHECK_STATES),
    /** Names of the products that disclose what they receive to others (beyond running the service). */
    disclosing_apps: list(text()),
  },
  {
    /** The caller's relation to the child when already linked to them (the page chooses it for them). */
    relation: text(),
  },
);

export const guardianChildrenAnswer = object({
  children: list(
    object({
      id: integer(),
      nickname: text(),
      /** The name the child's school gave the account (its teacher typed it), when a school made it. */
      pupil_name: nullable(text()),
      relation: text(),
      age_band: nullable(oneOf(...AGE_BANDS)),
      consent_state: nullable(oneOf(...CONSENT_STATES)),
      frozen: boolean(),
    }),
  ),
});

const s = (maxLength = 256) => ({ type: 'string', required: true, maxLength }) as const;
const id = { type: 'integer', required: true, min: 1, max: Number.MAX_SAFE_INTEGER } as const;

const route = eduRoute;

export const openConsentLinkRoute = route('POST', 'me/consent/link', 'token');
export const consentRequestRoute = route('POST', 'consent/request', 'token', { body: { link: s(64) } });
export const decideConsentRoute = route('POST', 'consent/decide', 'token', {
  body: { link: s(64), decision: s(16), relation: s(16) },
  status: 204,
});
export const setOwnAgeRoute = route('PUT', 'me/age', 'token', {
  body: { birth_year_month: { type: 'string', required: true, maxLength: 7 } },
});
export const guardianChildrenRoute = route('GET', 'guardian/children', 'token');
export const openChildConsentLinkRoute = route('POST', 'guardian/children/:id/consent/link', 'token', {
  params: { id },
});
export const withdrawConsentRoute = route('POST', 'guardian/children/:id/consent/withdraw', 'token', {
  params: { id },
  status: 204,
});

/** Children and guardians in the route table (routes.ts). */
export const guardianTable = {
  ownConsent: described(ownConsentRoute, "The caller's age band and guardian consent", ownConsentAnswer),
  openConsentLink: described(
    openConsentLinkRoute,
    'A child under 14 opens a one-time link for a guardian (24 hours)',
    consentLinkAnswer,
  ),
  consentRequest: described(
    consentRequestRoute,
    'A guardian reads what a consent link asks (the child, the text, the scopes)',
    consentRequestAnswer,
  ),
  decideConsent: described(
    decideConsentRoute,
    "A guardian consents (or refuses: the child's account is deleted)",
    none,
  ),
  setOwnAge: described(
    setOwnAgeRoute,
    'An account of unknown age gives its year and month of birth (once; an adult one may then decide consent)',
    ownConsentAnswer,
  ),
  guardianChildren: described(guardianChildrenRoute, "The caller's linked children", guardianChildrenAnswer),
  openChildConsentLink: described(
    openChildConsentLinkRoute,
    'A guardian linked to a child who waits for consent opens the consent link for themselves (24 hours)',
    consentLinkAnswer,
  ),
  withdrawConsent: described(
    withdrawConsentRoute,
    "A guardian withdraws consent: the child's account is frozen at once",
    none,
  ),
};

export type ConsentText = Answer<typeof consentTextAnswer>;
export type ConsentRequest = Answer<typeof consentRequestAnswer>;
export type GuardianChildren = Answer<typeof guardianChildrenAnswer>;

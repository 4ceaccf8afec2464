/**
 * What an application receives of a person, by the person's guardian consent and by who the
 * application is: the one table every way out of claims reads (the ID token and userinfo through
 * oidc/accounts.ts, the consent screen's list through oidc/interactions.ts). docs/education.md,
 * "What applications receive", shows the same table.
 *
 * A child under 14 needs a guardian's consent before their personal information is shared (PIPL
 * art. 31). Until then (`pending`), a third-party application receives only the pseudonymous subject
 * and the claims it needs to protect the child: the age band, minor mode and its limits, whether a
 * guardian is linked and consented, whether the account is managed by a school. The operator's own
 * products (first party) also receive the name, nickname, picture, username and the school and class:
 * what the child uses the platform with. A pupil under a school's agreement (`school`) is the same,
 * except that a third party the agreement names (`named`: school-agreements.ts) is treated as the
 * operator's own products are. Phone numbers and e-mail addresses leave only with a guardian's consent
 * (or for a person who needs none). A `withdrawn` account is frozen and answers nothing at all. A
 * claim in no group below is released to no one while consent is needed.
 */
import { type ConsentState, everyClaim, MINOR_CLAIMS, type OidcClaim } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { latestConsentChecked } from '../../../store/edu/family/guardians.ts';
import type { User } from '../../../store/schema.ts';
import { findApplication } from '../../identity/request-reads.ts';
import { agreementCovers } from './school-agreements.ts';

/**
 * Who asks: the platform's own products (`first_party` applications), a third party the agreement of
 * the pupil's school names (`named`, only for a pupil under it), or any other third party.
 */
export type Party = 'first' | 'named' | 'third';

/** The consent state as the table reads it: `none` for an account that needs no consent (14 and over, unknown age). */
export type DisclosureState = ConsentState | 'none';

/** The claims, grouped as the table releases them. */
export const CLAIM_GROUPS = {
  /** The pseudonymous subject and what a product needs to protect the child. */
  protective: ['sub', ...MINOR_CLAIMS, 'managed_by_school'],
  /** What the child is called and shown as. */
  profile: ['name', 'nickname', 'picture', 'preferred_username', 'locale'],
  /** The schools and classes, with names. */
  school: ['edu'],
  /** How to reach the child. */
  contact: ['email', 'email_verified', 'phone_number', 'phone_number_verified'],
} as const satisfies Record<string, readonly OidcClaim[]>;
export type ClaimGroup = keyof typeof CLAIM_GROUPS;

const EVERY_GROUP = Object.keys(CLAIM_GROUPS) as ClaimGroup[];
const OWN = ['protective', 'profile', 'school'] as const;
const PROTECTIVE_ONLY = ['protective'] as const;

/** State × party → the groups released. */
export const DISCLOSURE: Record<DisclosureState, Record<Party, readonly ClaimGroup[]>> = {
  none: { first: EVERY_GROUP, named: EVERY_GROUP, third: EVERY_GROUP },
  granted: { first: EVERY_GROUP, named: EVERY_GROUP, third: EVERY_GROUP },
  school: { first: OWN, named: OWN, third: PROTECTIVE_ONLY },
  pending: { first: OWN, named: PROTECTIVE_ONLY, third: PROTECTIVE_ONLY },
  withdrawn: { first: [], named: [], third: [] },
};

export const disclosureState = (user: Pick<User, 'consent_state'>): DisclosureState => user.consent_state ?? 'none';

/**
 * Who the application `clientId` is to `user`: first party, named by the agreement the pupil is under,
 * or a third party (also when unknown). The agreement is asked only for a pupil under one.
 */
export const partyFor = async (
  ctx: Pick<Context, 'db'>,
  user: Pick<User, 'id' | 'consent_state'>,
  clientId: string | undefined,
): Promise<Party> => {
  if (clientId === undefined) return 'third';
  if ((await findApplication(ctx.db, clientId))?.first_party === 1) return 'first';
  return user.consent_state === 'school' && (await agreementCovers(ctx, user.id, clientId)) ? 'named' : 'third';
};

/**
 * What `clientId` may read of `user`: the state and party of the table, except that a product that
 * discloses what it receives to others (`discloses_to_others`) gets only the protective claims of a
 * child whose consent is not a guardian's given after the real-name adult check (the stronger method:
 * adult-check.ts) — a school's consent, or a guardian's by SMS code alone, is not enough for it.
 */
export const disclosureFor = async (
  ctx: Pick<Context, 'db'>,
  user: Pick<User, 'id' | 'consent_state'>,
  clientId: string | undefined,
): Promise<{ state: DisclosureState; party: Party }> => {
  const state = disclosureState(user);
  const party = await partyFor(ctx, user, clientId);
  if (state === 'none' || state === 'withdrawn' || clientId === undefined) return { state, party };
  if ((await findApplication(ctx.db, clientId))?.discloses_to_others !== 1) return { state, party };
  return state === 'granted' && (await latestConsentChecked(ctx.db, user.id))
    ? { state, party }
    : { state: 'pending', party: 'third' };
};

/** The claims released for `state` to a `party` application. */
export const releasedClaims = (state: DisclosureState, party: Party): ReadonlySet<string> =>
  new Set<string>(DISCLOSURE[state][party].flatMap((group) => CLAIM_GROUPS[group]));

/** `claims` with only what the table releases (a claim of no scope, or in no group, is kept back). */
export const disclose = (claims: Record<string, unknown>, released: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(claims).filter(([claim]) => released.has(claim)));

/** Claims of the scopes no group names: none, or the table has a gap (disclosure.test.ts). */
export const ungroupedClaims = () =>
  everyClaim().filter(
    (claim) => !EVERY_GROUP.some((group) => (CLAIM_GROUPS[group] as readonly string[]).includes(claim)),
  );

/**
 * Guardian consent for children under 14 (PIPL arts. 28 and 31): an account whose band is under 14
 * starts `pending` — it signs in and learns, but is not granted the community scope. The child opens
 * a one-time link (24 hours) and hands it to a guardian, who signs in with their own phone (the SMS
 * code proves it; a phone other than the child's), reads the consent text and decides:
 * - consent: the child's account is `granted`, the guardian linked (relation recorded);
 * - refusal: the child's account is deleted (services/account/deletion.ts).
 * A linked guardian may withdraw at any time: the account is frozen and its sessions end at once.
 * Every decision is a record (child, guardian, method, text version, scopes, time) that outlives the
 * account. Accounts left pending longer than EDU_CONSENT_PENDING_DAYS are deleted by the sweeper.
 */
import {
  type AgeBand,
  ClientCode,
  COMMUNITY_SCOPE,
  type ConsentState,
  DAY_MS,
  GUARDIAN_RELATIONS,
  type GuardianRelation,
  HOUR_SECONDS,
} from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest } from '../../../errors.ts';
import { deleteCodesTo } from '../../../store/account/codes.ts';
import { findUserById } from '../../../store/account/users.ts';
import {
  allowExportNow,
  childrenOfGuardian,
  guardiansOfChild,
  insertConsentRecord,
  linkGuardian,
  moveConsentState,
  pendingConsentBefore,
  setAgeOnce,
} from '../../../store/edu/family/guardians.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { listApplicationRows } from '../../../store/identity/applications.ts';
import type { User } from '../../../store/schema.ts';
import { deleteAccount } from '../../account/deletion.ts';
import { endAllSessions } from '../../account/users.ts';
import { issueTicket, peekTicket, spendTicket } from '../../security/tickets.ts';
import { inTransaction, recordEvent } from '../../webhooks/events.ts';
import { STAFF_ARE_NOT_GUARDIANS, worksAtChildsSchool } from '../access.ts';
import { adultCheckState, requiredAdultCheck } from './adult-check.ts';
import { currentBand, signUpAgeColumns } from './age.ts';
import { currentConsentText } from './consent-text.ts';
import { requireGuardian, settleWaitedRequests, tellGuardianAdded } from './guardian-requests.ts';
import { minorModeChanged } from './minor-mode.ts';

/** How long a consent link works (once). */
export const CONSENT_LINK_SECONDS = 24 * HOUR_SECONDS;
/** What a consent grants the child's account, beyond what a pending account already has. */
export const CONSENTED_SCOPES = [COMMUNITY_SCOPE] as const;
/** Accounts the sweeper deletes in one pass at most (the rest wait for the next hour). */
const SWEEP_BATCH = 100;

const noLink = () =>
  new ApiError('E_2', 'This consent link has expired or was already used. Ask the child for a new one.');

/** Whether the account may be given the community scope now. */
export const mayUseCommunity = (user: Pick<User, 'consent_state'>) =>
  user.consent_state === null || user.consent_state === 'granted' || user.consent_state === 'school';

/** The scopes an authorization must not grant the user now (the community scope while consent is pending). */
export const withheldScopes = async (ctx: Pick<Context, 'db'>, userId: number): Promise<string[]> => {
  const user = await findUserById(ctx.db, userId);
  return user && mayUseCommunity(user) ? [] : [...CONSENTED_SCOPES];
};

export const ownConsent = async (ctx: Context, userId: number) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('E_0');
  return { age_band: currentBand(user, ctx.now()), consent_state: user.consent_state };
};

/**
 * An account of unknown age (signed up by a client that did not ask) answers the age question once:
 * the band and, under 14, a consent to wait for, as at sign-up. E_1 once an age is known.
 */
export const setOwnAge = async (ctx: Context, userId: number, birthYearMonth: string) => {
  const columns = signUpAgeColumns(birthYearMonth, ctx.now());
  const changed = await inTransaction(ctx, async (tx) => {
    if (!(await setAgeOnce(tx.db, userId, columns, tx.now()))) return false;
    await minorModeChanged(tx, userId);
    return true;
  });
  if (!changed) throw invalidRequest('The year and month of birth were already given; they are not changed here.');
  ctx.sessions.forgetUser(userId);
  return ownConsent(ctx, userId);
};

/** A child waiting for consent opens a link for a guardian; every link works once, for 24 hours. */
export const openConsentLink = async (ctx: Context, userId: number) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('E_0');
  if (user.consent_state !== 'pending') throw invalidRequest('No guardian consent is waiting on this account.');
  const link = await issueTicket(ctx, 'guardian_consent', String(user.id), CONSENT_LINK_SECONDS);
  return { link, expires_at: ctx.now() + CONSENT_LINK_SECONDS * 1000 };
};

/**
 * A guardian linked to a child who waits for consent (linked with the code on the school's login card,
 * or a letter) opens the consent link for themselves: the same link, with the same checks when it is
 * read and decided (`childOfLink`), as one the child would have sent them.
 */
export const openChildConsentLink = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  if (child.consent_state !== 'pending') throw invalidRequest('No guardian consent is waiting on this account.');
  const link = await issueTicket(ctx, 'guardian_consent', String(child.id), CONSENT_LINK_SECONDS);
  return { link, expires_at: ctx.now() + CONSENT_LINK_SECONDS * 1000 };
};

/** A minor's refusal, in plain words. */
export const MINORS_DO_NOT_CONSENT =
  'Only an adult can decide for a child. Ask your mother, father or another grown-up in your family to do it from their own phone.';
/** What an account of unknown age is asked first (the web client asks the year and month of birth). */
export const AGE_NEEDED_FIRST = 'Tell us the year and month you were born first: only an adult can decide for a child.';

/**
 * Consent is decided only by an adult: an account that declares an adult birth month, or that passed
 * the real-name adult check. A minor is refused; an account of unknown age is asked its birth month
 * first (E_1 with INVALID_BIRTHDAY's number, which the web client turns into the question).
 */
const requireAdult = async (ctx: Context, guardianId: number) => {
  const guardian = (await findUserById(ctx.db, guardianId)) ?? fail('E_0');
  const band = currentBand(guardian, ctx.now());
  if (band === 'adult') return;
  if ((await adultCheckState(ctx, guardian.id)).state === 'passed') return;
  if (band !== null) throw invalidRequest(MINORS_DO_NOT_CONSENT);
  throw ageNeeded();
};
const ageNeeded = () => new ApiError('E_1', AGE_NEEDED_FIRST, ClientCode.INVALID_BIRTHDAY);

/**
 * The child a live link names, once the caller is shown to be someone who may decide: not the child,
 * with a phone of their own (the SMS code of their sign-in proved it) that is not the child's, not a
 * child themselves, and not working at the school that made the child's account (`worksAtChildsSchool`).
 */
const childOfLink = async (ctx: Context, guardianId: number, link: string) => {
  const facts = await peekTicket(ctx, 'guardian_consent', link);
  if (!facts) throw noLink();
  const [child, guardian] = await Promise.all([
    findUserById(ctx.db, Number(facts.subject)),
    findUserById(ctx.db, guardianId),
  ]);
  if (child?.consent_state !== 'pending') throw noLink();
  if (!guardian) return fail('E_0');
  if (guardian.id === child.id || !guardian.phone || guardian.phone === child.phone) {
    throw invalidRequest("A guardian signs in with their own phone, not the child's.");
  }
  if (await worksAtChildsSchool(ctx, guardian.id, child.id)) throw invalidRequest(STAFF_ARE_NOT_GUARDIANS);
  const band = currentBand(guardian, ctx.now());
  if (band !== null && band !== 'adult') throw invalidRequest(MINORS_DO_NOT_CONSENT);
  return child;
};

export const consentRequest = async (ctx: Context, guardianId: number, link: string) => {
  const child = await childOfLink(ctx, guardianId, link);
  // Without the adult check, an account of unknown age is asked its birth month before anything else;
  // with it, the page offers the check (which also makes the account one that may decide).
  const adult = await adultCheckState(ctx, guardianId);
  const guardian = (await findUserById(ctx.db, guardianId)) ?? fail('E_0');
  if (adult.state === 'off' && currentBand(guardian, ctx.now()) === null) throw ageNeeded();
  // A guardian linked already is shown the child as the guardian's area shows them, with the relation given.
  const linked = (await guardiansOfChild(ctx.db, child.id)).find((row) => Number(row.id) === guardianId);
  const pupil = linked && (await findPupilAccount(ctx.db, child.id));
  return {
    child: {
      nickname: (linked && (pupil?.display_name || child.fullname)) || child.nickname || '',
      age_band: currentBand(child, ctx.now()),
    },
    ...(linked && { relation: linked.relation }),
    text: await currentConsentText(ctx),
    scopes: [...CONSENTED_SCOPES],
    adult_check: adult.state,
    // Products that pass what they receive to others: the child's data reaches them only after this
    // consent, given after the real-name adult check (disclosure.ts); the page names them.
    disclosing_apps: (await listApplicationRows(ctx.db))
      .filter((app) => app.discloses_to_others === 1)
      .map((app) => app.name),
  };
};

const consentChanged = (tx: Context, child: User, state: ConsentState | 'deleted', band: AgeBand | null) =>
  recordEvent(tx, {
    type: 'minor.consent.changed',
    userId: child.id,
    product: child.pid,
    data: { consent_state: state, age_band: band },
  });

export interface ConsentDecision {
  link: string;
  decision: string;
  relation: string;
}

/**
 * The guardian's decision. The link is spent first (one decision per link, also under parallel
 * calls), then the state moves from `pending` (so a decision on an account that was decided meanwhile
 * changes nothing).
 */
export const decideConsent = async (ctx: Context, guardianId: number, input: ConsentDecision) => {
  if (input.decision !== 'consent' && input.decision !== 'refuse') {
    throw invalidRequest('decision must be "consent" or "refuse".');
  }
  if (!(GUARDIAN_RELATIONS as readonly string[]).includes(input.relation)) {
    throw invalidRequest(`relation must be one of ${GUARDIAN_RELATIONS.join(', ')}.`);
  }
  const child = await childOfLink(ctx, guardianId, input.link);
  const granted = input.decision === 'consent';
  // Checked before the link is spent: a guardian sent to the adult check comes back with the same link.
  const adultCheck = granted ? await requiredAdultCheck(ctx, guardianId) : undefined;
  await requireAdult(ctx, guardianId);
  const text = await currentConsentText(ctx);
  if (!(await spendTicket(ctx, 'guardian_consent', input.link))) throw noLink();
  const decided = await inTransaction(ctx, async (tx) => {
    const now = tx.now();
    if (!(await moveConsentState(tx.db, child.id, ['pending'], granted ? 'granted' : 'pending', { updated_at: now }))) {
      return false;
    }
    await insertConsentRecord(tx.db, {
      child_id: child.id,
      guardian_id: guardianId,
      method: 'sms',
      text_version: text.version,
      scopes: granted ? CONSENTED_SCOPES.join(' ') : '',
      decision: granted ? 'granted' : 'refused',
      created_at: now,
      ...(adultCheck && {
        adult_check_vendor: adultCheck.vendor,
        adult_check_request_id: adultCheck.request_id,
        adult_check_at: Number(adultCheck.created_at),
      }),
    });
    if (granted) {
      await linkGuardian(tx.db, {
        child_id: child.id,
        guardian_id: guardianId,
        relation: input.relation as GuardianRelation,
        created_at: now,
        export_from: null,
      });
      // A guardian linked before by a code gave the consent now: no wait for a copy of the data.
      await allowExportNow(tx.db, guardianId, child.id);
      await consentChanged(tx, child, 'granted', currentBand(child, now));
      await minorModeChanged(tx, child.id);
    }
    return true;
  });
  ctx.sessions.forgetUser(child.id);
  if (!decided) throw noLink();
  if (granted) await tellGuardianAdded(ctx, child.id, guardianId, input.relation);
  if (!granted) await deleteAccount(ctx, child.id, 'guardian');
};

/** A linked guardian withdraws consent: the account is frozen (blocked) and every session ends now. */
export const withdrawConsent = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_2');
  const text = await currentConsentText(ctx);
  await inTransaction(ctx, async (tx) => {
    const now = tx.now();
    const moved = await moveConsentState(tx.db, childId, ['granted', 'school'], 'withdrawn', {
      blocked_at: now,
      updated_at: now,
    });
    if (!moved) throw invalidRequest('There is no consent to withdraw on this account.');
    await insertConsentRecord(tx.db, {
      child_id: childId,
      guardian_id: guardianId,
      method: 'sms',
      text_version: text.version,
      scopes: '',
      decision: 'withdrawn',
      created_at: now,
    });
    await consentChanged(tx, child, 'withdrawn', currentBand(child, now));
    await endAllSessions(tx, child, 'consent_withdrawn');
  });
  ctx.sessions.forgetUser(childId);
};

export const guardianChildren = async (ctx: Context, guardianId: number) => {
  await settleWaitedRequests(ctx, { requesterId: guardianId });
  return {
    children: (await childrenOfGuardian(ctx.db, guardianId)).map((c) => ({
      id: Number(c.id),
      nickname: c.nickname || c.fullname,
      pupil_name: c.pupil_name,
      relation: c.relation,
      age_band: currentBand(c, ctx.now()),
      consent_state: c.consent_state,
      frozen: c.blocked_at !== null,
    })),
  };
};

/**
 * The sweeper's part: accounts under 14 that no guardian consented to within the configured days are
 * deleted (as a refusal would), with the codes sent to their phone or e-mail. Answers how many.
 */
export const deleteUnconfirmedChildren = async (ctx: Context, now: number) => {
  const stale = await pendingConsentBefore(ctx.db, now - ctx.config.eduConsentPendingDays * DAY_MS, SWEEP_BATCH);
  let deleted = 0;
  for (const child of stale) {
    await deleteCodesTo(
      ctx.db,
      [child.phone, child.email?.toLowerCase()].filter((t): t is string => typeof t === 'string' && t !== ''),
    );
    // A consent given meanwhile keeps the account (read again just before the deletion).
    const current = await findUserById(ctx.db, Number(child.id));
    if (current?.consent_state !== 'pending') continue;
    await deleteAccount(ctx, current.id, 'unconfirmed').then(
      () => deleted++,
      () => undefined,
    );
  }
  return { unconfirmedChildren: deleted };
};

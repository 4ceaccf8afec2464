/**
 * Guardians linked to children (many to many, the relation recorded). A child opens a one-time link
 * code in the account centre; a pupil's teacher opens one for a letter or the login card; a guardian
 * who consents is linked by the consent itself (consent.ts). A code is eight characters without
 * look-alikes, works once, lapses, and is kept only as its HMAC (a ticket, security/tickets.ts); a
 * guardian's tries count against the sign-in lock (security/rate-limits.ts), atomically, so a flood
 * of guesses is refused past the limit, the right code included. Linking or the last unlinking tells
 * products through `minor.settings.changed` (`guardian_linked`).
 */
import { DAY_SECONDS, GUARDIAN_RELATIONS, type GuardianRelation } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest } from '../../../errors.ts';
import { dropTicketsOf } from '../../../store/account/tickets.ts';
import { findUserById } from '../../../store/account/users.ts';
import { guardiansOfChild, hasGuardianRow, unlinkGuardianRow } from '../../../store/edu/family/guardians.ts';
import { findPupilAccount } from '../../../store/edu/school/pupils.ts';
import { countLockedTry } from '../../security/rate-limits.ts';
import { issueTicket, peekTicket, spendTicket } from '../../security/tickets.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { requireAccess, requireGuardianOf, STAFF_ARE_NOT_GUARDIANS, worksAtChildsSchool } from '../access.ts';
import { drawCode } from '../codes.ts';
import { currentBand } from './age.ts';
import { linkOrAsk, settleWaitedRequests } from './guardian-requests.ts';
import { minorModeChanged } from './minor-mode.ts';

/** A code the child opens works a week: long enough to reach a parent working away. */
export const CHILD_CODE_SECONDS = 7 * DAY_SECONDS;
/** A code a teacher opens works 30 days: it travels home on paper. */
export const TEACHER_CODE_SECONDS = 30 * DAY_SECONDS;

const noCode = () => new ApiError('E_2', 'This code is not valid any more. Ask for a new one.');

/** A code for `childId` that `issuerId` opened (the child, or a teacher for a letter or a login card). */
export const openCode = async (ctx: Context, childId: number, issuerId: number, seconds: number) => {
  const code = drawCode(8);
  await issueTicket(ctx, 'guardian_link', `user:${childId}`, seconds, { by: issuerId }, code);
  return { code, expires_at: ctx.now() + seconds * 1000 };
};

const ONLY_CHILDREN = 'Guardians link to the accounts of children under 18.';

/** A child (anyone under 18) opens a code for a guardian. */
export const openGuardianCode = async (ctx: Context, childId: number) => {
  const child = (await findUserById(ctx.db, childId)) ?? fail('E_0');
  const band = currentBand(child, ctx.now());
  if (band === null || band === 'adult') throw invalidRequest(ONLY_CHILDREN);
  return openCode(ctx, childId, childId, CHILD_CODE_SECONDS);
};

/**
 * Drops every guardian code open for these children, whoever opened it: a reprinted or reset card's,
 * and any opened while someone else could sign in as the child (before a reset, or before the child
 * bound a phone of their own and took the account from the school).
 */
export const dropGuardianCodes = (db: Context['db'], childIds: number[]) =>
  dropTicketsOf(
    db,
    'guardian_link',
    childIds.map((id) => `user:${id}`),
  );

/**
 * The pupils' guardian codes printed on login cards, the earlier ones dropped first: as with badges,
 * a reprint makes a lost card's code useless. In the card sheet's transaction (`ctx`).
 */
export const cardGuardianCodes = async (ctx: Context, teacherId: number, pupilIds: number[]) => {
  await dropGuardianCodes(ctx.db, pupilIds);
  const codes: string[] = [];
  for (const id of pupilIds) codes.push((await openCode(ctx, id, teacherId, TEACHER_CODE_SECONDS)).code);
  return codes;
};

/**
 * A teacher of the pupil's class opens a code for the pupil's guardian (a letter home, the login
 * card): only for an account the school made and still manages, as with a reset or a card. A class
 * member's own account (a personal phone, or joined by a join code) is that person's, and its
 * guardian, if any, links with a code the child opens.
 */
export const openPupilGuardianCode = async (ctx: Context, teacherId: number, classId: number, pupilId: number) => {
  await requireAccess(ctx, teacherId, { kind: 'pupil', id: pupilId, classId }, 'reset');
  const pupil = (await findUserById(ctx.db, pupilId)) ?? fail('E_2');
  if (currentBand(pupil, ctx.now()) === 'adult') throw invalidRequest(ONLY_CHILDREN);
  return openCode(ctx, pupilId, teacherId, TEACHER_CODE_SECONDS);
};

/**
 * Who may become a child's guardian (by a code, or confirming the school's address book): an adult (or
 * of unknown age) with a phone of their own, not the child, to a child (not an adult), and no one
 * working at the school that made the child's account (`worksAtChildsSchool`).
 */
export const requireMayLink = async (ctx: Context, guardianId: number, childId: number) => {
  const [guardian, child] = await Promise.all([findUserById(ctx.db, guardianId), findUserById(ctx.db, childId)]);
  if (!guardian) return fail('E_0');
  if (!child) return fail('E_2');
  if (guardian.id === child.id || !guardian.phone || guardian.phone === child.phone) {
    throw invalidRequest("A guardian links from their own account with their own phone, not the child's.");
  }
  const band = currentBand(guardian, ctx.now());
  if (band !== null && band !== 'adult') throw invalidRequest('A guardian must be an adult.');
  if (currentBand(child, ctx.now()) === 'adult') throw invalidRequest(ONLY_CHILDREN);
  if (await worksAtChildsSchool(ctx, guardianId, childId)) throw invalidRequest(STAFF_ARE_NOT_GUARDIANS);
};

/**
 * A guardian links with a code: an adult (or of unknown age) with a phone of their own, not the
 * child, to a child (not an adult), not the teacher who opened the code (it is for someone else), and
 * no one working at the school that made the child's account, which can sign in as the child and
 * open a code as them (`worksAtChildsSchool`): a guardian may read, export and delete the account. The guardian is checked before the
 * code is spent, so a refusal leaves the code for the right person; the code is spent before the
 * link is written, so it links once however many race. While the child has a guardian, the spent
 * code is a request the guardians decide on (guardian-requests.ts), not a link.
 */
export const linkChild = async (ctx: Context, guardianId: number, input: { code: string; relation: string }) => {
  if (!(GUARDIAN_RELATIONS as readonly string[]).includes(input.relation)) {
    throw invalidRequest(`relation must be one of ${GUARDIAN_RELATIONS.join(', ')}.`);
  }
  await countLockedTry(ctx, `guardian-link:${guardianId}`);
  const code = input.code.replace(/\s+/g, '').toUpperCase();
  const facts = await peekTicket(ctx, 'guardian_link', code);
  if (!facts) throw noCode();
  const childId = Number(facts.subject.replace(/^user:/, ''));
  if (!(await findUserById(ctx.db, childId))) throw noCode();
  await requireMayLink(ctx, guardianId, childId);
  if (facts.data.by === guardianId) {
    throw invalidRequest("This code is for the pupil's guardian: give it to them to link from their own account.");
  }
  if (!(await spendTicket(ctx, 'guardian_link', code))) throw noCode();
  // A code a teacher opened (a letter, the login card) names the pupil's school to the guardians who decide.
  const viaSchool = facts.data.by === childId ? undefined : await findPupilAccount(ctx.db, childId);
  return linkOrAsk(
    ctx,
    childId,
    guardianId,
    input.relation as GuardianRelation,
    viaSchool ? Number(viaSchool.school_id) : null,
  );
};

/** A guardian removes their own link; the child's consent and records stay as they are. */
export const unlinkChild = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardianOf(ctx, guardianId, childId);
  await inTransaction(ctx, async (tx) => {
    if (!(await unlinkGuardianRow(tx.db, guardianId, childId))) throw new ApiError('E_2');
    if (!(await hasGuardianRow(tx.db, childId))) await minorModeChanged(tx, childId);
  });
};

export const guardianList = async (ctx: Pick<Context, 'db'>, childId: number) =>
  (await guardiansOfChild(ctx.db, childId)).map((g) => ({
    id: Number(g.id),
    name: g.nickname || g.fullname,
    relation: g.relation,
    linked_at: Number(g.created_at),
  }));

/** The child's account centre: who is linked (a request that waited long enough is approved first). */
export const ownGuardians = async (ctx: Context, childId: number) => {
  await settleWaitedRequests(ctx, { childId });
  return { guardians: await guardianList(ctx, childId) };
};

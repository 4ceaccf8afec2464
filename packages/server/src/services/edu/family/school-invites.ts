/**
 * Guardians a school's address book lists (roster/address-books.ts): the school's record is not the
 * guardian's consent, so each waits as an invite until that guardian confirms. Signed in with the
 * phone the school recorded, the guardian sees the pupils listed for it, asks for a code by SMS to
 * that phone and confirms with it; the link is then made as a code's link is (guardian-requests.ts
 * `linkOrAsk`: at once when the child has no guardian yet, else a request the child's guardians
 * decide), naming the school. A guardian the book gives no phone for ("guardian to confirm") links
 * with a code the school hands over (guardian-links.ts), as any guardian of a pupil can.
 *
 * Only a phone the account proved by a code sees invites (an operator's import may record one unproved),
 * and each listing is a read of the child's name and school, logged for the child's family to see.
 */
import type { GuardianRelation } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { markInviteConfirmed, pendingInvitesForPhone } from '../../../store/edu/family/guardian-invites.ts';
import { maskPhone } from '../../account/views.ts';
import { sendCode, verifyCode } from '../../codes/one-time-codes.ts';
import { logReads } from '../access-log.ts';
import { requireMayLink } from './guardian-links.ts';
import { linkOrAsk } from './guardian-requests.ts';

/** The invites for the caller's own proved phone; none without one. */
const invitesOf = async (ctx: Context, userId: number) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('E_0');
  return user.phone && user.phone_verified === 1 ? pendingInvitesForPhone(ctx.db, user.phone) : [];
};

export const schoolInvites = async (ctx: Context, userId: number) => {
  const invites = await invitesOf(ctx, userId);
  await logReads(ctx, {
    readerId: userId,
    role: 'guardian',
    subjectIds: invites.map((r) => Number(r.child_id)),
    fields: ['name', 'membership'],
    purpose: 'guardian_invite',
  });
  return {
    invites: invites.map((r) => ({
      id: Number(r.id),
      child_id: Number(r.child_id),
      child_name: r.child_name,
      school: r.school,
      relation: r.relation,
      phone: maskPhone(r.phone),
    })),
  };
};

/** One invite for the caller's phone, still waiting; E_2 for any other (as if it did not exist). */
const inviteOf = async (ctx: Context, userId: number, inviteId: number) => {
  const invite = (await invitesOf(ctx, userId)).find((r) => Number(r.id) === inviteId) ?? fail('E_2');
  return { ...invite, phone: invite.phone as string };
};

/** A code by SMS to the phone the school recorded (the sends are limited as every code's are). */
export const sendSchoolInviteCode = async (ctx: Context, userId: number, inviteId: number, ip: string) => {
  const invite = await inviteOf(ctx, userId, inviteId);
  await requireMayLink(ctx, userId, Number(invite.child_id));
  await sendCode(ctx, { target: invite.phone, scene: 'common', channel: 'sms', ip });
};

/**
 * Confirms with the code: spent once however many race, then linked (or asked), and the invite marked
 * confirmed by the caller.
 */
export const confirmSchoolInvite = async (ctx: Context, userId: number, inviteId: number, code: string) => {
  const invite = await inviteOf(ctx, userId, inviteId);
  const childId = Number(invite.child_id);
  await requireMayLink(ctx, userId, childId);
  await verifyCode(ctx, invite.phone, 'common', code);
  const outcome = await linkOrAsk(ctx, childId, userId, invite.relation as GuardianRelation, Number(invite.school_id));
  if (!(await markInviteConfirmed(ctx.db, inviteId, userId, ctx.now()))) {
    throw invalidRequest('This was confirmed already.');
  }
  return outcome;
};

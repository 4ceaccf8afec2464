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
import { fail, invalidRequest, RefusedForNow } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import {
  markInviteConfirmed,
  pendingInvitesForPhone,
  pupilClassesIn,
  takeInviteSend,
  waitingInviteOfSchool,
  waitingInvitesOfSchool,
} from '../../../store/edu/family/guardian-invites.ts';
import { maskPhone } from '../../account/views.ts';
import { sendCode, verifyCode } from '../../codes/one-time-codes.ts';
import { requireAccess } from '../access.ts';
import { logReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
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

/** A school admin resends one invitation at most once in this interval… */
export const INVITE_RESEND_INTERVAL_MS = 10 * 60 * 1000;
/** …and this many times a day (China Standard Time). */
export const INVITE_RESENDS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const CST_OFFSET_MS = 8 * 60 * 60 * 1000;
const PAGE_MAX = 100;

/**
 * A school admin's "guardians to confirm": the school's invites still waiting, by id after `cursor`,
 * each with the child's name and classes, the relation, the phone masked ('' when the book gave none),
 * since when it waits and when the school last sent the invitation. Each page is a read of the
 * children's names and classes, logged for their families to see.
 */
export const guardiansToConfirm = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  page: { cursor?: number | undefined; limit?: number | undefined },
) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const limit = Math.min(Math.max(page.limit ?? PAGE_MAX, 1), PAGE_MAX);
  const rows = await waitingInvitesOfSchool(ctx.db, schoolId, page.cursor ?? 0, limit + 1);
  const shown = rows.slice(0, limit);
  const childIds = [...new Set(shown.map((r) => Number(r.child_id)))];
  const classes = await pupilClassesIn(ctx.db, schoolId, childIds);
  await logReads(ctx, {
    readerId: callerId,
    role: 'teacher',
    subjectIds: childIds,
    fields: ['name', 'membership'],
    purpose: 'guardians_to_confirm',
  });
  return {
    guardians: shown.map((r) => ({
      id: Number(r.id),
      child_id: Number(r.child_id),
      child_name: r.child_name,
      classes: classes.get(Number(r.child_id)) ?? [],
      relation: r.relation,
      phone: r.phone ? maskPhone(r.phone) : '',
      since: Number(r.created_at),
      invited_at: r.invited_at === null ? null : Number(r.invited_at),
    })),
    next_cursor: rows.length > limit ? Number(shown.at(-1)?.id) : null,
  };
};

/**
 * AC3_23 with the wait that applies as the invite was read: to the next day (China Standard Time) once
 * the day's sends are used, else to the end of the interval since the last send.
 */
const resendRefused = (
  invite: { invited_at: number | null; invite_day: number | null; invites_that_day: number | null },
  now: number,
  day: number,
) => {
  if (Number(invite.invite_day) === day && Number(invite.invites_that_day) >= INVITE_RESENDS_PER_DAY) {
    const seconds = Math.ceil(((day + 1) * DAY_MS - CST_OFFSET_MS - now) / 1000);
    return new RefusedForNow(
      'AC3_23',
      seconds,
      `The invitation was sent ${INVITE_RESENDS_PER_DAY} times today. Try again tomorrow.`,
    );
  }
  const since = invite.invited_at === null ? 0 : now - Number(invite.invited_at);
  const seconds = Math.max(1, Math.ceil((INVITE_RESEND_INTERVAL_MS - since) / 1000));
  return new RefusedForNow('AC3_23', seconds, 'The invitation was sent just now. Try again later.');
};

/**
 * Sends the invitation again by SMS to the phone the school recorded: once per
 * `INVITE_RESEND_INTERVAL_MS` and `INVITE_RESENDS_PER_DAY` a day per invite, taken atomically (AC3_23
 * past either); E_2 for an invite of another school, confirmed, or unknown, AC3_7 for one without a phone.
 */
export const resendGuardianInvite = async (ctx: Context, callerId: number, schoolId: number, inviteId: number) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  const invite = (await waitingInviteOfSchool(ctx.db, schoolId, inviteId)) ?? fail('E_2');
  const phone = invite.phone ?? fail('AC3_7', 'The school recorded no phone for this guardian.');
  const now = ctx.now();
  const day = Math.floor((now + CST_OFFSET_MS) / DAY_MS);
  const limits = { intervalMs: INVITE_RESEND_INTERVAL_MS, perDay: INVITE_RESENDS_PER_DAY };
  if (!(await takeInviteSend(ctx.db, inviteId, now, day, limits))) throw resendRefused(invite, now, day);
  const site = ctx.config.site.name;
  try {
    await ctx.delivery.notify?.({
      to: phone,
      channel: 'sms',
      kind: 'guardian_invite',
      subject: `${site}: ${invite.school}`,
      text:
        `【${site}】${invite.school}邀请您确认为${invite.display_name}的家长：请用本手机号登录${site}并确认。` +
        ` ${site}: ${invite.school} invites you to confirm as a guardian of ${invite.display_name}: sign in with this phone number and confirm.`,
    });
  } catch (error) {
    ctx.logger.warn({ invite: inviteId, err: error }, 'guardian invitation not delivered');
  }
  await eduAudit(ctx, callerId, 'guardian_invite.resend', `school:${schoolId}`, `invite:${inviteId}`);
  return { invited_at: now };
};

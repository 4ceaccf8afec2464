/**
 * A pupil's own login cards. The pupil sees the cards that still sign in (when each was printed, for
 * which class) and ends one at once; a card is named by the first characters of its badge's hash,
 * never by the badge. A card signs in only while the account is the school's (no personal phone), so
 * an account with a phone lists none. Choosing a password of one's own ends the cards as well
 * (store/edu/school/pupils.ts `pupilChosePassword`, in the password change's transaction) unless the
 * school's admin chose that cards keep working (`setCardsKeepWorking`).
 */
import type { OwnCards } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { fail } from '../../../errors.ts';
import { findUserById } from '../../../store/account/users.ts';
import { liveBadgesOf, revokeOwnBadge, schoolKeepsCards } from '../../../store/edu/school/pupils.ts';
import { setCardsKeepWorking } from '../../../store/edu/school/schools.ts';
import { requireAccess } from '../access.ts';
import { eduAudit } from '../audit.ts';

export const listOwnCards = async (ctx: Context, userId: number): Promise<OwnCards> => {
  const [user, badges, keep] = await Promise.all([
    findUserById(ctx.db, userId),
    liveBadgesOf(ctx.db, userId),
    schoolKeepsCards(ctx.db, userId),
  ]);
  return {
    cards: user?.phone
      ? []
      : badges.map((b) => ({ id: b.id, printed_at: Number(b.created_at), class_name: b.class_name ?? '' })),
    cards_keep_working: keep,
  };
};

/** Ends the caller's card `cardId` at once; a card ended already is done; another's or none is E_2. */
export const revokeOwnCard = async (ctx: Context, userId: number, cardId: string) => {
  if ((await revokeOwnBadge(ctx.db, userId, cardId, ctx.now())) === 'missing') fail('E_2');
};

/** A school admin's choice: whether pupils' printed cards keep working after their own password. */
export const updateSchoolSettings = async (
  ctx: Context,
  callerId: number,
  schoolId: number,
  settings: { cards_keep_working: boolean },
) => {
  await requireAccess(ctx, callerId, { kind: 'school', id: schoolId }, 'manage');
  await setCardsKeepWorking(ctx.db, schoolId, settings.cards_keep_working);
  await eduAudit(
    ctx,
    callerId,
    'school.cards.set',
    `school:${schoolId}`,
    settings.cards_keep_working ? 'cards keep working' : 'cards end with the pupil’s own password',
  );
};

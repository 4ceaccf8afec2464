/**
 * A pupil's account whose password is still the one the school printed on the login card, while the
 * school asks pupils to choose their own (`EDU_PUPIL_PASSWORD_CHANGE`, on by default): until they do,
 * the session can choose the password, sign out, and read what the screen for it needs (who is
 * signed in, whether the account has a password and a phone, the school's memberships that say a
 * change is due, the pupil's cards and whether they keep working after it, agreements to sign, the
 * pupil's own age band, by which a child is never asked about usage reports). Every other call
 * answers E_17, so a card that someone else read cannot be used for anything but choosing a password
 * the card's owner would then not know. A pupil whose account has a phone of its own is not asked,
 * nor a session the school's own system signed in (CAS, SAML, OpenID Connect, DingTalk or WeCom:
 * `school_*`): the school proved who the pupil is, no card was used, and a pupil who never had a card
 * could not give its password to choose another.
 */
import type { RouteName, ServerCode } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import type { SessionUser } from '../../store/sessions/sessions.ts';
import { staffPasswordExpired } from '../passwords/staff-policy.ts';

const ALLOWED: ReadonlySet<RouteName> = new Set<RouteName>([
  'changePassword',
  'changePasswordKeepingSession',
  'logout',
  'deleteTokens',
  'getProfile',
  'getPrivacy',
  'eduMemberships',
  'ownConsent',
  'listOwnCards',
  'signAgreements',
  // A staff member whose password expired (staff-policy.ts): the console asks who they are first.
  'operatorSelf',
]);

export const passwordChoiceDue = (user: SessionUser): boolean =>
  user.password_choice_due === 1 && user.phone === null && !user.session_method?.startsWith('school_');

/** Whether the route `name` may be called by a session whose password choice is due. */
export const allowedBeforePasswordChoice = (name: RouteName): boolean => ALLOWED.has(name);

/** A staff session whose password is past the staff policy (staff-policy.ts): the change comes first. */
export const staffPasswordDue = (ctx: Context, user: SessionUser): boolean =>
  user.session_staff === 1 && staffPasswordExpired(ctx, user);

/**
 * The refusal of a call before the password is changed: E_17 for a pupil still on the card's password,
 * E_21 for a staff session whose password is past the staff policy (staff-policy.ts); undefined when
 * the call may go on.
 */
export const refusedBeforePasswordChange = (
  ctx: Context,
  name: RouteName,
  user: SessionUser,
): ServerCode | undefined => {
  if (allowedBeforePasswordChoice(name)) return undefined;
  if (passwordChoiceDue(user)) return 'E_17';
  if (staffPasswordDue(ctx, user)) return 'E_21';
  return undefined;
};

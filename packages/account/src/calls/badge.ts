import { type BadgeSignInResult, signInByBadgeRoute } from '@edupass/protocol';
import { anonymous, type Call, defineCall } from '../call.ts';
import { signIn } from '../shapes.ts';

export interface BadgeLoginInput {
  /** The sign-in badge a login card's QR code carries (the part of its link after `#`). */
  badge: string;
  /**
   * The uid of a first-party product's sign-in this browser waits on: the server completes it with
   * the sign-in when nothing more is asked of the pupil, and the answer's `redirect_to` is where the
   * browser goes on to (without it, complete the interaction as after any sign-in).
   */
  interaction?: string;
}

/** Signs in with a login card's badge (a revoked or unknown badge is `USER_NOT_EXIST_OR_WRONG_PASSWORD`). */
export const loginByBadge: Call<BadgeLoginInput, BadgeSignInResult> = /* @__PURE__ */ defineCall(
  anonymous,
  signInByBadgeRoute,
  signIn,
);

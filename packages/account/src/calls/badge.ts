import { type LoginResult, signInByBadgeRoute } from '@edupass/protocol';
import { anonymous, type Call, defineCall } from '../call.ts';
import { signIn } from '../shapes.ts';
import type { ProductSignInInput } from './sign-in.ts';

export interface BadgeLoginInput extends ProductSignInInput {
  /** The sign-in badge a login card's QR code carries (the part of its link after `#`). */
  badge: string;
}

/** Signs in with a login card's badge (a revoked or unknown badge is `USER_NOT_EXIST_OR_WRONG_PASSWORD`). */
export const loginByBadge: Call<BadgeLoginInput, LoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  signInByBadgeRoute,
  signIn,
);

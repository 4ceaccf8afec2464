import { deleteAccountRoute } from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import { signOut } from '../shapes.ts';
import { withToken } from '../with-token.ts';

/**
 * Deletes the signed-in user's account for good: sign-in methods, sessions, second factors and signed
 * agreements go, and sites hear of it by the `user.deleted` webhook. The server asks for a recent proof
 * first (STEP_UP_REQUIRED: prove with `@edupass/account/step-up`, then call again). Signs this client out.
 */
export const deleteAccount: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, deleteAccountRoute, signOut);

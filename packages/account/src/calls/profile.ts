import { getProfileRoute, type UserInfo } from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import { user } from '../shapes.ts';
import { withToken } from '../with-token.ts';

/** The signed-in user's profile; the session learns the user from it. */
export const getProfile: PlainCall<UserInfo> = /* @__PURE__ */ defineCall(withToken, getProfileRoute, user);

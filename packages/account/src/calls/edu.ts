import { type EduMemberships, eduMembershipsRoute } from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import { object } from '../shapes.ts';
import { withToken } from '../with-token.ts';

/**
 * The signed-in user's schools and classes with roles (pending requests included, with their status),
 * `managed_by_school` (an account a school created that has no personal phone yet) and
 * `must_change_password` (the school asks for a new password before anything else).
 */
export const getEduMemberships: PlainCall<EduMemberships> = /* @__PURE__ */ defineCall(
  withToken,
  eduMembershipsRoute,
  object,
);

import {
  type EduMemberships,
  eduMembershipsRoute,
  listOwnCardsRoute,
  type OwnCards,
  revokeOwnCardRoute,
} from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { nothing, object } from '../shapes.ts';
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

/**
 * The signed-in pupil's login cards that still sign in (when printed, for which class), and whether the
 * school keeps them working after the pupil chooses a password of their own (`cards_keep_working`).
 */
export const listOwnCards: PlainCall<OwnCards> = /* @__PURE__ */ defineCall(withToken, listOwnCardsRoute, object);

/** Ends one of the signed-in pupil's cards at once (`id` from `listOwnCards`); ended already is done. */
export const revokeOwnCard = (client: AccountClient, input: { id: string }): Promise<void> =>
  defineCall<Record<string, never>, void>(
    withToken,
    { ...revokeOwnCardRoute, path: revokeOwnCardRoute.path.replace(':id', encodeURIComponent(input.id)) },
    nothing,
  )(client);

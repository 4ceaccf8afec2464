import {
  addSchoolTeacherRoute,
  approveTeacherRoute,
  type EduMemberships,
  eduMembershipsRoute,
  listOwnCardsRoute,
  type OwnCards,
  refuseTeacherRoute,
  requestTeachingRoute,
  revokeOwnCardRoute,
  type SchoolSearch,
  searchSchoolsRoute,
  type WireRoute,
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

/** The route with its `:name` parts filled in. */
const at = <R extends WireRoute>(route: R, params: Record<string, number>): R => ({
  ...route,
  path: route.path.replace(/:(\w+)/g, (_, name: string) => String(params[name])),
});

/**
 * Schools whose name holds `q` (two characters or more; case and spaces do not matter), to ask to teach
 * at one: their `id` and `name` only, 20 at most.
 */
export const searchSchools = (client: AccountClient, input: { q: string }): Promise<SchoolSearch> =>
  defineCall<{ q: string }, SchoolSearch>(withToken, searchSchoolsRoute, object)(client, input);

/**
 * Asks to teach at a school (the account needs a bound phone, `AC3_7` otherwise; a pupil account is
 * `E_4`). The request shows in `getEduMemberships` as `pending`, then `approved` or `refused`; asking
 * again after a refusal makes it `pending` again, and an approved teacher stays approved.
 */
export const requestTeaching = (client: AccountClient, input: { school_id: number }): Promise<void> =>
  defineCall<Record<string, never>, void>(
    withToken,
    at(requestTeachingRoute, { id: input.school_id }),
    nothing,
  )(client);

/** A school admin approves a teacher's request to teach at the school. */
export const approveTeacher = (client: AccountClient, input: { school_id: number; user_id: number }): Promise<void> =>
  defineCall<Record<string, never>, void>(
    withToken,
    at(approveTeacherRoute, { id: input.school_id, user_id: input.user_id }),
    nothing,
  )(client);

/** A school admin turns down a pending request to teach (an approved teacher is `E_2`). */
export const refuseTeacher = (client: AccountClient, input: { school_id: number; user_id: number }): Promise<void> =>
  defineCall<Record<string, never>, void>(
    withToken,
    at(refuseTeacherRoute, { id: input.school_id, user_id: input.user_id }),
    nothing,
  )(client);

/**
 * A school admin adds a teacher by the phone number of the teacher's own account: an approved teacher
 * of this school only, at once; adding again changes nothing. `AC3_1` when no account has the number,
 * `E_4` for a pupil account, `E_2` for a school the caller does not manage.
 */
export const addSchoolTeacher = (
  client: AccountClient,
  input: { school_id: number; phone_number: string },
): Promise<void> =>
  defineCall<{ phone_number: string }, void>(
    withToken,
    at(addSchoolTeacherRoute, { id: input.school_id }),
    nothing,
  )(client, { phone_number: input.phone_number });

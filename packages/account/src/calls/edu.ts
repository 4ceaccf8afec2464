import {
  addSchoolTeacherRoute,
  approveTeacherRoute,
  type EduMemberships,
  eduMembershipsRoute,
  type GuardiansToConfirm,
  guardiansToConfirmRoute,
  listOwnCardsRoute,
  mergePupilsRoute,
  type OwnCards,
  type PupilDuplicates,
  pupilDuplicatesRoute,
  refuseTeacherRoute,
  requestTeachingRoute,
  resendGuardianInviteRoute,
  revokeOwnCardRoute,
  type SchoolSearch,
  searchSchoolsRoute,
  type WireRoute,
} from '@edupass/protocol';
import { defineCall, type PlainCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { named } from '../route-call.ts';
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
 * again after a refusal makes it `pending` again, and an approved teacher stays approved. `name`: how
 * the school knows the teacher ("王老师"), shown to the pupils and guardians whose records they read.
 */
export const requestTeaching = (client: AccountClient, input: { school_id: number; name?: string }): Promise<void> =>
  defineCall<{ name?: string }, void>(
    withToken,
    at(requestTeachingRoute, { id: input.school_id }),
    nothing,
  )(client, input.name === undefined ? {} : { name: input.name });

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

/**
 * A school admin: the school's pupils who may be one person on two or more accounts (the same name
 * written alike, the same 学号 under two keys, the same name and birth month), each account with its
 * classes and whether it may stay (`refused_as_keep`) or end (`refused_as_end`). Nothing is merged:
 * the admin chooses with `mergePupils`. `E_2` for a school the caller does not manage.
 */
export const listPupilDuplicates = (client: AccountClient, input: { school_id: number }): Promise<PupilDuplicates> =>
  defineCall<Record<string, never>, PupilDuplicates>(
    withToken,
    at(pupilDuplicatesRoute, { id: input.school_id }),
    object,
  )(client);

/**
 * A school admin merges two accounts of one pupil: `keep` takes the classes, guardians, consent, cards
 * and school keys of `end`, which ends. `ACCOUNTS_NOT_MERGEABLE` (E_19) names why a pair cannot be.
 */
export const mergePupils = (
  client: AccountClient,
  input: { school_id: number; keep: number; end: number },
): Promise<{ kept: number; ended: number }> =>
  defineCall<{ keep: number; end: number }, { kept: number; ended: number }>(
    withToken,
    at(mergePupilsRoute, { id: input.school_id }),
    object,
  )(client, { keep: input.keep, end: input.end }).catch((error: unknown) => {
    throw named(error);
  });

/**
 * A school admin's "guardians to confirm": the school's guardians an address book listed who have not
 * confirmed yet (child, classes, relation, phone masked or '', since when, last invitation), 100 at most
 * a page; `cursor` a page's `next_cursor` for the next.
 */
export const listGuardiansToConfirm = (
  client: AccountClient,
  input: { school_id: number; cursor?: number; limit?: number },
): Promise<GuardiansToConfirm> => {
  const { school_id, ...page } = input;
  return defineCall<{ cursor?: number; limit?: number }, GuardiansToConfirm>(
    withToken,
    at(guardiansToConfirmRoute, { id: school_id }),
    object,
  )(client, page);
};

/**
 * A school admin sends a waiting guardian's invitation again by SMS: once per 10 minutes and 3 times a
 * day per guardian (`AC3_23` with `retry_after` past it; `AC3_7` when the school recorded no phone).
 */
export const resendGuardianInvite = (
  client: AccountClient,
  input: { school_id: number; invite_id: number },
): Promise<{ invited_at: number }> =>
  defineCall<Record<string, never>, { invited_at: number }>(
    withToken,
    at(resendGuardianInviteRoute, { id: input.school_id, invite_id: input.invite_id }),
    object,
  )(client, {});

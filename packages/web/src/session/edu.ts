/**
 * The education layer's calls (protocol's edu-routes.ts) for the signed-in user, through the account
 * SDK's route calls: the held token, refresh and retry, failures as `AuthError`.
 */
import {
  type CallableRoute,
  callRoute,
  type RouteAnswer,
  type RouteCallArgs,
  type RouteInputArg,
} from '@edupass/account/custom-calls';
import { type EduMemberships, eduMembershipsRoute } from '@edupass/protocol';
import { client } from './account.ts';

/** Sends an education route as the signed-in user; answers its typed body. */
export const eduCall = <R extends CallableRoute>(route: R, ...[input]: RouteInputArg<R>): Promise<RouteAnswer<R>> =>
  callRoute(client, route, ...([input] as unknown as RouteCallArgs<R>));

/** The caller's schools, classes and roles. */
export const loadMemberships = () => callRoute(client, eduMembershipsRoute) as Promise<EduMemberships>;

/** Whether the teacher area is for this user: a school role (approved or asked for), or a class taught. */
export const hasTeachingArea = (memberships: EduMemberships | undefined): boolean =>
  Boolean(memberships && (memberships.schools.length > 0 || memberships.classes.some((c) => c.role !== 'pupil')));

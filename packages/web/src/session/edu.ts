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

/**
 * Whether the teacher area is offered: to anyone who teaches or asked to, and to any account of a
 * person's own that may teach (an adult's, where a new teacher finds a school and asks to teach there);
 * never to an account a school made for a pupil, a child's, nor a pupil of a class.
 */
export const hasTeachingArea = (memberships: EduMemberships | undefined): boolean => {
  if (!memberships) return false;
  if (memberships.schools.length > 0 || memberships.classes.some((c) => c.role !== 'pupil')) return true;
  return memberships.may_teach && !memberships.classes.some((c) => c.role === 'pupil');
};

/** The console's one way to call the server: a route of the table through the account SDK's machinery. */
import { type CallableRoute, callRoute, type RouteInput } from '@edupass/account/custom-calls';
import { items } from './parse.ts';
import { consoleClient } from './session.ts';

export type Query = NonNullable<RouteInput['query']>;

/** Sends `route` as the signed-in operator; answers the parsed body. Failures are the SDK's `AuthError`. */
export const adminCall = (route: CallableRoute, input?: RouteInput): Promise<unknown> =>
  callRoute(consoleClient, route, input);

/** A GET whose answer is a list of objects, each read by `read`. */
export const getList = async <T>(
  route: CallableRoute,
  query: Query,
  read: (item: Record<string, unknown>) => T,
  what?: string,
) => items(await adminCall(route, { query }), read, what);

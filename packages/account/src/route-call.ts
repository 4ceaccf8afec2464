/**
 * A route of the table sent for the signed-in user with the SDK's own machinery: the standard headers,
 * the held token, refresh and retry on an expired token, the tokens dropped when the server no longer
 * knows the session, and every failure an `AuthError`. For clients of routes the SDK has no method for
 * (the operator console's `adminRoutes`).
 */
import type { WireRoute } from '@edupass/protocol';
import type { AccountClient } from './client.ts';
import { withToken } from './with-token.ts';

/** What a route call needs of a route. */
export type CallableRoute = Pick<WireRoute, 'method' | 'path' | 'host' | 'auth'>;

export interface RouteInput {
  /** Values of the path's `:name` segments. */
  params?: Record<string, string | number>;
  /** Query parameters; empty ones (undefined, '', 0) are left out. */
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** The path with its `:name` segments filled from `params`. */
export const routePath = (path: string, params: RouteInput['params'] = {}): string =>
  path.replace(/:(\w+)/g, (whole, name: string) =>
    params[name] === undefined ? whole : encodeURIComponent(String(params[name])),
  );

/** Sends `route` and answers the parsed body (`undefined` for 204). */
export const callRoute = async (
  client: AccountClient,
  route: CallableRoute,
  { params, query, body }: RouteInput = {},
): Promise<unknown> => {
  const reply = await withToken(client, {
    route: { ...route, path: routePath(route.path, params) },
    query,
    body: () => body,
  });
  return reply.data;
};

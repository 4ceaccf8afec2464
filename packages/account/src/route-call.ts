/**
 * A route of the table sent for the signed-in user with the SDK's own machinery: the standard headers,
 * the held token, refresh and retry on an expired token, the tokens dropped when the server no longer
 * knows the session, and every failure an `AuthError`. For clients of routes the SDK has no method for
 * (the operator console's `adminRoutes`). Typed by the route: its input from its fields, its answer
 * from its answer schema.
 */
import {
  type Answer,
  CoreCode,
  type Fields,
  type Parsed,
  schoolStaffCodeName,
  type WireRoute,
} from '@edupass/protocol';
import type { Values } from './call.ts';
import type { AccountClient } from './client.ts';
import { AuthError, isAuthError } from './errors.ts';
import { withToken } from './with-token.ts';

/** What a route call needs of a route: where it goes, and (for the types) its fields and answer. */
export type CallableRoute = Pick<WireRoute, 'method' | 'path' | 'host' | 'auth'> & {
  body?: Fields;
  query?: Fields;
  params?: Fields;
  answer?: unknown;
};

/** Query values may be left undefined (empty ones are not sent). */
type Loose<T> = { [K in keyof T]?: T[K] | undefined };
type Slot<K extends string, F, V> = F extends Fields
  ? Record<string, never> extends V
    ? { [P in K]?: V }
    : { [P in K]: V }
  : { [P in K]?: undefined };
type FieldsAt<R, K extends string> = R extends { [P in K]: infer F } ? F : undefined;

/** The input of `route`: its path parameters, query and body, typed by its fields. */
export type RouteInput<R extends CallableRoute = CallableRoute> = Slot<
  'params',
  FieldsAt<R, 'params'>,
  Parsed<FieldsAt<R, 'params'>>
> &
  Slot<'query', FieldsAt<R, 'query'>, Loose<Parsed<FieldsAt<R, 'query'>>>> &
  Slot<'body', FieldsAt<R, 'body'>, Parsed<FieldsAt<R, 'body'>>>;

/** What `route` answers on success (`void` for a 204), from its answer schema. */
export type RouteAnswer<R extends CallableRoute> = R extends { answer: infer S } ? Answer<S> : unknown;

export interface RouteCallOptions {
  /**
   * Checks the answer against the route's schema before it is returned: protocol's `answerProblem`
   * (passed in, so a bundle without the check carries none of it). A mismatch rejects with an
   * `AuthError` of `SERVER_ERROR` naming the field.
   */
  check?: (schema: unknown, value: unknown) => string | undefined;
}

/** The input argument of `route`: required when some field of it is. */
export type RouteInputArg<R extends CallableRoute> =
  Record<string, never> extends RouteInput<R> ? [input?: RouteInput<R>] : [input: RouteInput<R>];
export type RouteCallArgs<R extends CallableRoute> = [...RouteInputArg<R>, options?: RouteCallOptions];

/** The path with its `:name` segments filled from `params`. */
export const routePath = (path: string, params: Values = {}): string =>
  path.replace(/:(\w+)/g, (whole, name: string) =>
    params[name] === undefined ? whole : encodeURIComponent(String(params[name])),
  );

/**
 * `error` with the catalogue name of a code of the education and staff group (CLASS_NAME_TAKEN …), which
 * the SDK core names by the server's code alone: these routes are where such codes come from.
 */
export const named = (error: unknown): unknown => {
  const name = isAuthError(error) && error.name === error.serverCode ? schoolStaffCodeName(error.code) : undefined;
  return name === undefined ? error : Object.assign(error as AuthError, { name });
};

/** Sends `route` and answers the parsed body (`undefined` for 204), typed as the route's answer. */
export const callRoute = async <R extends CallableRoute>(
  client: AccountClient,
  route: R,
  ...args: RouteCallArgs<R>
): Promise<RouteAnswer<R>> => {
  const [input, options] = args as unknown as [Values | undefined, RouteCallOptions | undefined];
  const { params, query, body } = (input ?? {}) as { params?: Values; query?: Values; body?: Values };
  const reply = await withToken(client, {
    route: { ...route, path: routePath(route.path, params) },
    query,
    body: () => body,
  }).catch((error: unknown) => {
    throw named(error);
  });
  const problem = route.answer === undefined ? undefined : options?.check?.(route.answer, reply.data ?? null);
  if (problem !== undefined) {
    throw new AuthError(CoreCode.SERVER_ERROR, `Unexpected answer from the server (${problem}).`);
  }
  return reply.data as RouteAnswer<R>;
};

/**
 * The one helper every admin route is built with (admin-routes.ts explains how to add one). Its own
 * module, apart from route-fields.ts, which the captcha SDK's bundle carries.
 */
import { NO_CONTENT, type Schema } from './answer-schema.ts';
import { int, MS_RANGE, opt, s } from './route-fields.ts';
import type { Method, RouteSpec } from './routes.ts';

/**
 * An operator's call (`/admin/…`, operators only): what it does, what it answers, and its input
 * fields. It answers 204 when its answer is `NO_CONTENT`, 200 with that shape otherwise.
 */
/* @__NO_SIDE_EFFECTS__ */
export const operatorRoute = <
  const A extends Schema<unknown>,
  const E extends Partial<RouteSpec> = Record<never, never>,
>(
  method: Method,
  path: string,
  summary: string,
  answer: A,
  input: E = {} as E,
) =>
  ({
    method,
    path: `/admin/${path}`,
    host: 'tiger',
    auth: 'operator',
    summary,
    status: answer === NO_CONTENT ? 204 : 200,
    answer,
    ...input,
  }) as {
    method: Method;
    path: string;
    host: 'tiger';
    auth: 'operator';
    summary: string;
    status: 200 | 204;
    answer: A;
  } & E;

/** A product and a time window in unix ms (default: the 7 days up to now, at most 366 days). */
export const windowQuery = {
  product: s(64),
  from: opt({ ...int(), ...MS_RANGE }),
  to: opt({ ...int(), ...MS_RANGE }),
} as const;

import type { Schema } from './answer-schema.ts';
import type { WireRoute } from './routes.ts';

/**
 * Adds the API docs' summary and the answer to a route of account-routes.ts, captcha-routes.ts or
 * second-factor-routes.ts (which leave both out of client bundles).
 */
export const described = <const R extends WireRoute, const A extends Schema<unknown>>(
  route: R,
  summary: string,
  answer: A,
) => ({
  ...route,
  summary,
  answer,
});

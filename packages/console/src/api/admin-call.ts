/**
 * The console's one way to call the server: a route of the table through the account SDK's machinery,
 * typed by the route (input from its fields, answer from its schema) and each answer checked against
 * that schema on arrival (protocol's `answerProblem`), so a drifted answer is an error, not a blank.
 */
import {
  type CallableRoute,
  callRoute,
  type RouteAnswer,
  type RouteCallArgs,
  type RouteCallOptions,
  type RouteInputArg,
} from '@edupass/account/custom-calls';
import { answerProblem } from '@edupass/protocol';
import { consoleClient } from './session.ts';

const checked: RouteCallOptions = { check: answerProblem };

let lastCall = Date.now();

/** When the console last called the server: the server's idle time-out counts from its last call. */
export const lastCallAt = () => lastCall;

/** Sends `route` as the signed-in operator; answers its typed body. Failures are the SDK's `AuthError`. */
export const adminCall = <R extends CallableRoute>(route: R, ...[input]: RouteInputArg<R>): Promise<RouteAnswer<R>> => {
  lastCall = Date.now();
  return callRoute(consoleClient, route, ...([input, checked] as unknown as RouteCallArgs<R>));
};

/**
 * `@edupass/account/custom-calls`: any route of the table through the SDK's call machinery, a token
 * store scoped to one tab, and dropping the tokens without a request. An entry of its own, like
 * `./step-up`: the main entry's size budget carries none of it.
 */
export {
  type CallableRoute,
  callRoute,
  type RouteAnswer,
  type RouteCallArgs,
  type RouteCallOptions,
  type RouteInput,
  type RouteInputArg,
  routePath,
} from './route-call.ts';
export { type SessionTokenStoreOptions, sessionTokenStore } from './session-token-store.ts';
/** Drops the tokens and signs the session out here, without telling the server (it cannot be reached). */
export { clearTokens as forgetTokens } from './tokens.ts';

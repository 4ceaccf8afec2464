/**
 * Sign-in for the platform's other products: the OpenID Connect provider's interaction (the web
 * client shows it, then completes it), the return to an application after sign-in without OpenID
 * Connect (the registered applications are in application-routes.ts). Each web route is its own export so a bundle keeps only the routes it calls.
 */
import type { Answer } from './answer-schema.ts';
import type {
  applicationAnswer,
  applicationWithSecretAnswer,
  interactionAppAnswer,
  interactionDetailsAnswer,
  interactionOutcomeAnswer,
  returnCheckAnswer,
} from './identity-answers.ts';
import { opt as optional, s as str } from './route-fields.ts';
import type { WireRoute } from './routes.ts';

export const IDENTITY_BASE = '/tiger/v3/web/identity';
/** Where the provider is mounted; its issuer is PUBLIC_URL followed by this. */
export const OIDC_PREFIX = '/oidc';
/** The query parameter of the sign-in screen naming the provider's interaction. */
export const INTERACTION_PARAM = 'interaction';
/** The query parameter of the sign-in screens naming where to go back after sign-in. */
export const RETURN_PARAM = 'redirect';

const uid = { uid: /* @__PURE__ */ str(64) } as const;

export const interactionRoute = {
  method: 'GET',
  path: `${IDENTITY_BASE}/interactions/:uid`,
  host: 'tiger',
  auth: 'optional',
  params: uid,
  status: 200,
} as const satisfies WireRoute;

export const completeInteractionRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/interactions/:uid/complete`,
  host: 'tiger',
  auth: 'token',
  params: uid,
  body: { consent: /* @__PURE__ */ optional({ type: 'boolean' }) },
  status: 200,
} as const satisfies WireRoute;

export const denyInteractionRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/interactions/:uid/deny`,
  host: 'tiger',
  auth: 'token',
  params: uid,
  status: 200,
} as const satisfies WireRoute;

export const checkReturnRoute = {
  method: 'POST',
  path: `${IDENTITY_BASE}/return`,
  host: 'tiger',
  auth: 'optional',
  /** `client_id`: the application the page came from, named on the sign-in screen (several may share an origin). */
  body: { redirect: /* @__PURE__ */ str(2048), client_id: /* @__PURE__ */ optional(/* @__PURE__ */ str(64)) },
  status: 200,
} as const satisfies WireRoute;

export type InteractionApp = Answer<typeof interactionAppAnswer>;
export type InteractionDetails = Answer<typeof interactionDetailsAnswer>;
export type InteractionOutcome = Answer<typeof interactionOutcomeAnswer>;
export type ReturnCheck = Answer<typeof returnCheckAnswer>;
export type Application = Answer<typeof applicationAnswer>;
export type ApplicationWithSecret = Answer<typeof applicationWithSecretAnswer>;

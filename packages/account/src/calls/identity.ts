import {
  checkReturnRoute,
  completeInteractionRoute,
  denyInteractionRoute,
  type InteractionDetails,
  type InteractionOutcome,
  interactionRoute,
  type ReturnCheck,
  type WireRoute,
} from '@edupass/protocol';
import { anonymous, type Call, defineCall } from '../call.ts';
import type { AccountClient } from '../client.ts';
import { object } from '../shapes.ts';
import { withToken } from '../with-token.ts';

/** The route with its `:uid` filled in. */
const at = <R extends WireRoute>(route: R, uid: string): R => ({
  ...route,
  path: route.path.replace(':uid', encodeURIComponent(uid)),
});

/**
 * The application an OpenID Connect sign-in (the sign-in screen's `interaction` parameter) is for,
 * what it asks, and whether it needs consent or a fresh sign-in.
 */
export const interactionDetails = (client: AccountClient, uid: string): Promise<InteractionDetails> =>
  defineCall<void, InteractionDetails>(withToken, at(interactionRoute, uid), object)(client);

/**
 * Finishes that sign-in as the signed-in user (`consent` for a third-party application); answers
 * where to send the browser. Rejects with STEP_UP_REQUIRED when the application asks for a sign-in
 * newer than the session.
 */
export const completeInteraction = (client: AccountClient, uid: string, consent = false): Promise<InteractionOutcome> =>
  defineCall<{ consent: boolean }, InteractionOutcome>(
    withToken,
    at(completeInteractionRoute, uid),
    object,
  )(client, {
    consent,
  });

/**
 * The signed-in user refuses the application; answers where to send the browser (the application
 * learns it). Like the completion, only in the browser that started the sign-in.
 */
export const denyInteraction = (client: AccountClient, uid: string): Promise<InteractionOutcome> =>
  defineCall<void, InteractionOutcome>(withToken, at(denyInteractionRoute, uid), object)(client);

/**
 * Whether the sign-in screens may send the user back to `redirect` (INVALID_REQUEST if not), and the
 * application it belongs to: the one `client_id` names (several may share an origin).
 */
export const checkReturn: Call<{ redirect: string; client_id?: string }, ReturnCheck> = /* @__PURE__ */ defineCall(
  anonymous,
  checkReturnRoute,
  object,
);

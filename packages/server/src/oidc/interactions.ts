/**
 * The provider's interaction as the web client drives it: what the application is and asks for
 * (shown on the sign-in and consent screens), then the signed-in user's answer. The answer is the
 * provider's standard interaction result (login and consent), saved on the interaction; the browser
 * resumes at the provider.
 *
 * Every call is bound to the browser that started the authorization: the interaction is the one the
 * provider's interaction cookie names (`interactionDetails`), and it must be the one the call names.
 * A link to `/sign-in?interaction=<uid>` opened in anyone else's browser is refused, so nobody can
 * answer an authorization that another browser (an attacker's) will resume.
 */
import type { InteractionDetails, InteractionOutcome } from '@edupass/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GrantModel, InteractionModel, Provider } from 'oidc-provider';
import type { Context } from '../context.ts';
import { ApiError, invalidRequest } from '../errors.ts';
import { requireAgreementsSigned } from '../services/account/agreements.ts';
import { disclosureFor, releasedClaims } from '../services/edu/family/disclosure.ts';
import {
  findApplication,
  findUserById,
  providerRequest,
  sessionKey,
  sessionStartedAt,
  withRequestReads,
} from '../services/identity/provider-data.ts';
import { refusedBeforePasswordChange } from '../services/sessions/password-choice.ts';
import { authenticate, type SignedInSession } from '../services/sessions/tokens.ts';
import { SCOPE_CLAIMS } from './accounts.ts';
import { applyConsentToGrant } from './consent-scopes.ts';
import type { ProviderSource } from './mount.ts';
import type { EduPassLogin } from './provider.ts';

const FRESH_SIGN_IN_REASONS = new Set(['login_prompt', 'max_age']);

/** The browser's side of a call: its request (the interaction cookie) and the reply. */
export interface BrowserCall {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** One call's reads made once and its writes in one transaction, committed before it answers (provider-writes.ts). */
const inOneTransaction = async <T>(ctx: Context, work: () => Promise<T>): Promise<T> => {
  const request = providerRequest(ctx.db);
  try {
    return await request.run(() => withRequestReads(work));
  } finally {
    await request.flush();
  }
};

const openInteraction = async (provider: Provider, call: BrowserCall, uid: string): Promise<InteractionModel> => {
  const interaction = await provider.interactionDetails(call.request.raw, call.reply.raw).catch(() => undefined);
  if (interaction === undefined || interaction.uid !== uid) {
    throw new ApiError(
      'E_2',
      'This sign-in request has expired or was started in another browser. Go back to the application and start again.',
    );
  }
  return interaction;
};

const requestedScopes = (interaction: InteractionModel) =>
  String(interaction.params.scope ?? '')
    .split(' ')
    .filter((scope) => scope !== '');

const requestedClaims = (interaction: InteractionModel): string[] => [
  ...new Set(
    requestedScopes(interaction).flatMap((scope) =>
      scope in SCOPE_CLAIMS ? SCOPE_CLAIMS[scope as keyof typeof SCOPE_CLAIMS] : [],
    ),
  ),
];

/**
 * The claims asked for, split into what the application will receive of this account and what its
 * consent state keeps back (services/edu/family/disclosure.ts). Before sign-in, all asked for.
 */
const claimsToShow = async (ctx: Context, interaction: InteractionModel, accountId: string | undefined) => {
  const asked = requestedClaims(interaction);
  const user = accountId === undefined ? undefined : await findUserById(ctx.db, Number(accountId));
  if (user === undefined) return { claims: asked, withheld: [] };
  const { state, party } = await disclosureFor(ctx, user, String(interaction.params.client_id ?? ''));
  const released = releasedClaims(state, party);
  return {
    claims: asked.filter((claim) => released.has(claim)),
    withheld: asked.filter((claim) => !released.has(claim)),
  };
};

const needsFreshSignIn = (interaction: InteractionModel) =>
  interaction.prompt.name === 'login' && interaction.prompt.reasons.some((reason) => FRESH_SIGN_IN_REASONS.has(reason));

const applicationOf = async (ctx: Context, interaction: InteractionModel) => {
  const app = await findApplication(ctx.db, String(interaction.params.client_id ?? ''));
  if (app === undefined) throw new ApiError('E_2', 'The application of this sign-in request no longer exists.');
  return app;
};

/** The grant the interaction would widen: the existing one only if it is this account's. */
const existingGrant = async (provider: Provider, interaction: InteractionModel, accountId: string | undefined) => {
  if (interaction.grantId === undefined || accountId === undefined) return undefined;
  const grant = await provider.Grant.find(interaction.grantId);
  return grant !== undefined && grant.accountId === accountId ? grant : undefined;
};

/** Scopes asked for that the grant does not hold yet (all of them without a grant). */
const ungrantedScopes = (interaction: InteractionModel, grant: GrantModel | undefined) => {
  const held = new Set((grant?.getOIDCScope() ?? '').split(' '));
  return requestedScopes(interaction).filter((scope) => !held.has(scope));
};

/**
 * What the screens show. A third-party application needs consent whenever it asks for a scope the
 * user has not granted it, whatever the prompt (a fresh sign-in, prompt=login, is no consent).
 */
const details = async (
  ctx: Context,
  provider: Provider,
  interaction: InteractionModel,
  accountId: string | undefined,
): Promise<InteractionDetails> => {
  const app = await applicationOf(ctx, interaction);
  const firstParty = app.first_party === 1;
  const grant = firstParty ? undefined : await existingGrant(provider, interaction, accountId);
  return {
    app: { client_id: app.client_id, name: app.name, logo_url: app.logo_url, first_party: firstParty },
    ...(await claimsToShow(ctx, interaction, accountId)),
    fresh_sign_in: needsFreshSignIn(interaction),
    consent: !firstParty && ungrantedScopes(interaction, grant).length > 0,
  };
};

export const describeInteraction = async (
  ctx: Context,
  provider: Provider,
  call: BrowserCall,
  uid: string,
  session: SignedInSession | undefined,
) =>
  inOneTransaction(ctx, async () =>
    details(ctx, provider, await openInteraction(provider, call, uid), accountIdOf(session)),
  );

const accountIdOf = (session: SignedInSession | undefined) =>
  session === undefined ? undefined : String(session.userId);

const saveResult = async (ctx: Context, interaction: InteractionModel, result: Record<string, unknown>) => {
  interaction.result = result;
  await interaction.save(Math.max(1, interaction.exp - Math.floor(ctx.now() / 1000)));
  return { redirect_to: interaction.returnTo };
};

/** The grant of what the application asked, to this user (a grant of another user's is not reused). */
const grantFor = async (
  ctx: Context,
  provider: Provider,
  interaction: InteractionModel,
  accountId: string,
  clientId: string,
) => {
  const grant = (await existingGrant(provider, interaction, accountId)) ?? new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(requestedScopes(interaction).join(' '));
  await applyConsentToGrant(ctx, grant, requestedScopes(interaction));
  const missingClaims = interaction.prompt.details.missingOIDCClaims;
  if (missingClaims !== undefined) grant.addOIDCClaims(missingClaims);
  return grant.save();
};

/**
 * Signs the interaction in as the caller's session. A request for a fresh sign-in (prompt=login,
 * max_age) is answered only by a session that began after the request did (E_7 otherwise: the web
 * client then asks for credentials); an account with agreements in effect left to sign is refused
 * (E_15: the web client shows the agreements gate first); a third-party application needs `consent`.
 */
/**
 * When the caller's live session began, as its authentication read it (the session with its user in
 * one row, services/sessions/tokens.ts): not read again.
 */
const startOf = (session: SignedInSession): number | undefined => {
  const started = (session.user as { session_created_at?: number | null }).session_created_at;
  return started === undefined || started === null ? undefined : Number(started);
};

export const completeInteraction = async (
  ctx: Context,
  provider: Provider,
  call: BrowserCall,
  uid: string,
  session: SignedInSession,
  consent: boolean,
): Promise<InteractionOutcome> => inOneTransaction(ctx, () => completeWith(ctx, provider, call, uid, session, consent));

const completeWith = async (
  ctx: Context,
  provider: Provider,
  call: BrowserCall,
  uid: string,
  session: SignedInSession,
  consent: boolean,
): Promise<InteractionOutcome> => {
  const interaction = await openInteraction(provider, call, uid);
  const accountId = String(session.userId);
  const shown = await details(ctx, provider, interaction, accountId);
  const startedAt = startOf(session) ?? (await sessionStartedAt(ctx.db, session.sessionId));
  if (startedAt === undefined) throw new ApiError('E_0');
  if (shown.fresh_sign_in && startedAt < interaction.iat * 1000) {
    throw new ApiError('E_7', 'The application asks you to sign in again.');
  }
  await requireAgreementsSigned(ctx, session.userId, session.user);
  if (shown.consent && !consent) throw invalidRequest('The application needs your consent to what it asks.');
  const login: EduPassLogin & { ts: number; remember: boolean } = {
    accountId,
    edupassSessionKey: sessionKey(session.sessionId),
    ts: Math.floor(startedAt / 1000),
    remember: true,
  };
  const grantId = await grantFor(ctx, provider, interaction, accountId, shown.app.client_id);
  return saveResult(ctx, interaction, { ...interaction.lastSubmission, login, consent: { grantId } });
};

/**
 * A sign-in that names the interaction it is for (a login card's, `POST /edu/badge/sign-in` with
 * `interaction`) completes it in the same request, as the web client's return would right after: the
 * session just made is authenticated as any call's, and the completion is the one above, with no
 * consent given. Whatever would stop the return (an interaction of another browser or expired, a
 * third-party application's consent, agreements to sign, a password the pupil must choose first) stops
 * this too, and the sign-in is answered without it: the web client's return then shows what is needed,
 * as after any sign-in; so does a provider that cannot be built (the signing keys unreadable): the
 * sign-in it answers stands. Its `redirect_to` when completed, else undefined.
 */
export const completeWithSignIn = async (
  ctx: Context,
  provider: ProviderSource,
  call: BrowserCall,
  uid: string,
  token: string,
): Promise<string | undefined> => {
  try {
    const session = await authenticate(ctx, token);
    if (refusedBeforePasswordChange(ctx, 'completeInteraction', session.user) !== undefined) return undefined;
    return (await completeInteraction(ctx, (await provider()).provider, call, uid, session, false)).redirect_to;
  } catch (error) {
    // The sign-in stands: the web client's return completes the interaction, or shows why not.
    if (!(error instanceof ApiError))
      ctx.logger.warn({ err: error }, 'an interaction was not completed with its sign-in');
    return undefined;
  }
};

/** The signed-in user refuses, in the browser that started it: the application is told `access_denied`. */
export const denyInteraction = (
  ctx: Context,
  provider: Provider,
  call: BrowserCall,
  uid: string,
): Promise<InteractionOutcome> =>
  inOneTransaction(ctx, async () =>
    saveResult(ctx, await openInteraction(provider, call, uid), {
      error: 'access_denied',
      error_description: 'The user did not allow the application to sign in.',
    }),
  );

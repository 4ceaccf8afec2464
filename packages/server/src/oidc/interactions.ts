/**
 * The provider's interaction as the web client drives it: what the application is and asks for
 * (shown on the sign-in and consent screens), then the signed-in user's answer. The answer is the
 * provider's standard interaction result (login and consent), saved on the interaction; the browser
 * resumes at the provider, which checks that it is the browser that started the authorization
 * (its resume cookie), so the interaction id alone is no key to anyone's sign-in.
 */
import type { InteractionDetails, InteractionOutcome } from '@edupass/protocol';
import type { InteractionModel, Provider } from 'oidc-provider';
import type { Context } from '../context.ts';
import { ApiError, invalidRequest } from '../errors.ts';
import { findApplication, sessionKey, sessionStartedAt } from '../services/identity/provider-data.ts';
import type { SignedInSession } from '../services/sessions/tokens.ts';
import { SCOPE_CLAIMS } from './accounts.ts';
import type { EduPassLogin } from './provider.ts';

const FRESH_SIGN_IN_REASONS = new Set(['login_prompt', 'max_age']);

const openInteraction = async (provider: Provider, uid: string): Promise<InteractionModel> => {
  const interaction = await provider.Interaction.find(uid);
  if (interaction === undefined) {
    throw new ApiError('E_2', 'This sign-in request has expired. Go back to the application and start again.');
  }
  return interaction;
};

const requestedScopes = (interaction: InteractionModel) =>
  String(interaction.params.scope ?? '')
    .split(' ')
    .filter((scope) => scope !== '');

const requestedClaims = (interaction: InteractionModel) => [
  ...new Set(
    requestedScopes(interaction).flatMap((scope) =>
      scope in SCOPE_CLAIMS ? SCOPE_CLAIMS[scope as keyof typeof SCOPE_CLAIMS] : [],
    ),
  ),
];

const needsFreshSignIn = (interaction: InteractionModel) =>
  interaction.prompt.name === 'login' && interaction.prompt.reasons.some((reason) => FRESH_SIGN_IN_REASONS.has(reason));

const applicationOf = async (ctx: Context, interaction: InteractionModel) => {
  const app = await findApplication(ctx.db, String(interaction.params.client_id ?? ''));
  if (app === undefined) throw new ApiError('E_2', 'The application of this sign-in request no longer exists.');
  return app;
};

const details = async (ctx: Context, interaction: InteractionModel): Promise<InteractionDetails> => {
  const app = await applicationOf(ctx, interaction);
  const firstParty = app.first_party === 1;
  return {
    app: { client_id: app.client_id, name: app.name, logo_url: app.logo_url, first_party: firstParty },
    claims: requestedClaims(interaction),
    fresh_sign_in: needsFreshSignIn(interaction),
    consent: !firstParty && (interaction.prompt.name === 'consent' || interaction.grantId === undefined),
  };
};

export const describeInteraction = async (ctx: Context, provider: Provider, uid: string) =>
  details(ctx, await openInteraction(provider, uid));

const saveResult = async (ctx: Context, interaction: InteractionModel, result: Record<string, unknown>) => {
  interaction.result = result;
  await interaction.save(Math.max(1, interaction.exp - Math.floor(ctx.now() / 1000)));
  return { redirect_to: interaction.returnTo };
};

/** The grant of what the application asked, to this user (a grant of another user's is not reused). */
const grantFor = async (provider: Provider, interaction: InteractionModel, accountId: string, clientId: string) => {
  const existing = interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
  const grant =
    existing !== undefined && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(requestedScopes(interaction).join(' '));
  const missingClaims = interaction.prompt.details.missingOIDCClaims;
  if (missingClaims !== undefined) grant.addOIDCClaims(missingClaims);
  return grant.save();
};

/**
 * Signs the interaction in as the caller's session. A request for a fresh sign-in (prompt=login,
 * max_age) is answered only by a session that began after the request did (E_7 otherwise: the web
 * client then asks for credentials); a third-party application needs `consent`.
 */
export const completeInteraction = async (
  ctx: Context,
  provider: Provider,
  uid: string,
  session: SignedInSession,
  consent: boolean,
): Promise<InteractionOutcome> => {
  const interaction = await openInteraction(provider, uid);
  const shown = await details(ctx, interaction);
  const startedAt = await sessionStartedAt(ctx.db, session.sessionId);
  if (startedAt === undefined) throw new ApiError('E_0');
  if (shown.fresh_sign_in && startedAt < interaction.iat * 1000) {
    throw new ApiError('E_7', 'The application asks you to sign in again.');
  }
  if (shown.consent && !consent) throw invalidRequest('The application needs your consent to what it asks.');
  const accountId = String(session.userId);
  const login: EduPassLogin & { ts: number; remember: boolean } = {
    accountId,
    edupassSessionKey: sessionKey(session.sessionId),
    ts: Math.floor(startedAt / 1000),
    remember: true,
  };
  const grantId = await grantFor(provider, interaction, accountId, shown.app.client_id);
  return saveResult(ctx, interaction, { ...interaction.lastSubmission, login, consent: { grantId } });
};

/** The user refuses: the application is told `access_denied`. */
export const denyInteraction = async (ctx: Context, provider: Provider, uid: string): Promise<InteractionOutcome> => {
  const interaction = await openInteraction(provider, uid);
  return saveResult(ctx, interaction, {
    error: 'access_denied',
    error_description: 'The user did not allow the application to sign in.',
  });
};

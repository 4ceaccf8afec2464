/**
 * CAS sign-in (CAS Protocol 3.0 §2.1–2.5; `adapters/cas.ts` speaks it): the browser goes to the CAS
 * server's login page with EduPass's service address (the connector's finish route, carrying the
 * state); it comes back with a service ticket, which the CAS server validates for exactly that service
 * address (with `renew` when the school asks for its password at every sign-in). The route only
 * carries the browser; what the ticket says of the person goes to `sign-in.ts` one room up.
 */
import { routes } from '@edupass/protocol';
import { casLoginUrl, validateServiceTicket } from '../../../../adapters/cas.ts';
import { ProviderUnreachableError } from '../../../../adapters/provider-http.ts';
import type { Context } from '../../../../context.ts';
import { fail, RetryLater } from '../../../../errors.ts';
import type { CasConnector } from '../connectors.ts';
import type { UpstreamIdentity } from '../identity-mapping.ts';
import { connectorAddress } from '../upstream-url.ts';

/** How long the school's CAS server may take to validate a ticket. */
const VALIDATE_TIMEOUT_MS = 10_000;

/** The address CAS sends the browser back to; validation must name exactly the same one. */
const serviceUrl = (ctx: Context, code: string, state: string) => {
  const url = connectorAddress(ctx, routes.finishSchoolSignIn.path, code);
  url.searchParams.set('state', state);
  return url.toString();
};

/** Where the browser starts: the CAS server's login page, coming back with `state`. */
export const startCasSignIn = (ctx: Context, connector: CasConnector, state: string): string =>
  casLoginUrl(connector.cas, serviceUrl(ctx, connector.code, state), connector.forceSignIn);

/** The person the ticket names, as the school's CAS server validated it for this service address. */
export const finishCasSignIn = async (
  ctx: Context,
  connector: CasConnector,
  { state, ticket }: { state: string; ticket: string },
): Promise<UpstreamIdentity> => {
  try {
    const answer = await validateServiceTicket(
      connector.cas,
      { service: serviceUrl(ctx, connector.code, state), ticket, renew: connector.forceSignIn },
      VALIDATE_TIMEOUT_MS,
    );
    if (!answer.ok) {
      ctx.logger.warn({ connector: connector.code, code: answer.code }, 'school CAS refused a service ticket');
      return fail('AC3_27', 'The school system did not accept this sign-in. Sign in again.');
    }
    return { user: answer.user, attributes: answer.attributes };
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    ctx.logger.warn({ connector: connector.code, err: error.message }, 'school CAS unreachable');
    throw new RetryLater(30, "The school's sign-in system did not answer. Try again later.");
  }
};

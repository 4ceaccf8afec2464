/**
 * CAS single logout (CAS Protocol 3.0 §2.3.3, appendix C): the CAS server posts a LogoutRequest naming
 * the service ticket of the sign-in to end. The ticket travelled in the browser's address bar, so it
 * may be in its history, a proxy's log or a screenshot: a request naming it is believed only when it
 * comes from the school's CAS server, that is from an address the CAS server's host name resolves to
 * (looked up when a request comes, kept for a minute). Anything else is logged and changes nothing;
 * the answer is the same 204, so a stranger learns nothing about the ticket either way.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { readLogoutRequest } from '../../../../adapters/cas.ts';
import type { Context } from '../../../../context.ts';
import { fail } from '../../../../errors.ts';
import type { CasConnector } from '../connectors.ts';
import { endSchoolSignIn } from '../sign-in.ts';

const RESOLVED_FOR_MS = 60_000;
const resolved = new Map<string, { at: number; addresses: Promise<string[]> }>();

/** The addresses `host` resolves to now (a literal address is itself); none when it does not resolve. */
const addressesOf = (host: string): Promise<string[]> => {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return Promise.resolve([bare]);
  const kept = resolved.get(bare);
  if (kept && Date.now() - kept.at < RESOLVED_FOR_MS) return kept.addresses;
  const addresses = lookup(bare, { all: true }).then(
    (found) => found.map((a) => a.address),
    () => [],
  );
  resolved.set(bare, { at: Date.now(), addresses });
  return addresses;
};

/** `::ffff:192.0.2.1` and `192.0.2.1` are one address; `::1` and `127.0.0.1` both the loopback. */
const normal = (ip: string) => ip.replace(/^::ffff:/i, '');

/**
 * Ends the sign-in that the LogoutRequest `logoutRequest` names (its SessionIndex, the service ticket)
 * when the request came from the connector's CAS server; true when one ended. E_1 when it is no
 * LogoutRequest.
 */
export const casSingleLogout = async (
  ctx: Context,
  connector: CasConnector,
  logoutRequest: string,
  ip: string,
): Promise<boolean> => {
  const ticket = readLogoutRequest(logoutRequest);
  if (ticket === undefined) return fail('E_1', 'logoutRequest must be a SAML LogoutRequest naming a SessionIndex.');
  const host = new URL(connector.cas.serverUrl).hostname;
  const from = normal(ip);
  const casAddresses = (await addressesOf(host)).map(normal);
  if (!casAddresses.includes(from)) {
    ctx.logger.warn(
      { connector: connector.code, ip: from },
      "CAS single logout refused: the request did not come from the school's CAS server",
    );
    return false;
  }
  return endSchoolSignIn(ctx, connector, ticket);
};

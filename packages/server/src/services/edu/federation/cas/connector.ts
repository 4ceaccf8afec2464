/**
 * CAS as a school connector (../connector.ts): the browser comes back to the connector's own address
 * with a service ticket; signing out there is the CAS server's `/logout`; the CAS server posts its
 * single-logout requests to the same address.
 */
import { casLogoutUrl } from '../../../../adapters/cas.ts';
import { returnedToConnector, type SchoolConnector } from '../connector.ts';
import type { CasConnector } from '../connectors.ts';
import { finishCasSignIn, startCasSignIn } from './sign-in.ts';
import { casSingleLogout } from './single-logout.ts';

export const casConnector: SchoolConnector<CasConnector> = {
  kind: 'cas',
  returnRoute: 'finishSchoolSignIn',
  returnsByPost: false,
  returnedFor: returnedToConnector,
  start: async (ctx, connector, state) => startCasSignIn(ctx, connector, state),
  finish: async (ctx, connector, fields) => {
    const returned = fields as { ticket: string; state: string };
    return { identity: await finishCasSignIn(ctx, connector, returned), ticket: returned.ticket };
  },
  signOutUrl: async (_ctx, connector, _there, back) => casLogoutUrl(connector.cas, back),
  singleLogout: {
    route: 'schoolSingleLogout',
    end: (ctx, connector, logoutRequest, ip) => casSingleLogout(ctx, connector, logoutRequest, ip),
  },
};

/**
 * SAML through a federation as a school connector (../connector.ts): every school's identity provider
 * posts its response to EduPass's one assertion consumer service, so the RelayState names the
 * connector as well as the state; the identity providers' single logout comes to one shared address
 * too; and EduPass publishes its service provider metadata for the federation.
 */
import { fail } from '../../../../errors.ts';
import { fieldText, type SchoolConnector } from '../connector.ts';
import type { SamlConnector } from '../connectors.ts';
import { schoolSignOutFailedPage, signedOutPage } from '../upstream-url.ts';
import { samlLogout, samlSignOutAnswered } from './logout.ts';
import { finishSamlSignIn, samlSignOutUrl, serviceProviderMetadataOf, startSamlSignIn } from './sign-in.ts';

/** The RelayState: the connector's code and the state, so the shared endpoint knows the school. */
const relayStateOf = (code: string, state: string) => `${code}.${state}`;
const fromRelayState = (relayState: string) => {
  const dot = relayState.indexOf('.');
  return dot < 0 ? { code: '', state: '' } : { code: relayState.slice(0, dot), state: relayState.slice(dot + 1) };
};

export const samlConnector: SchoolConnector<SamlConnector> = {
  kind: 'saml',
  returnRoute: 'finishSamlSignIn',
  returnsByPost: true,
  returnedFor: ({ fields }) => fromRelayState(fieldText(fields, 'RelayState')),
  start: (ctx, connector, state) => startSamlSignIn(ctx, connector, relayStateOf(connector.code, state)),
  finish: async (ctx, connector, fields, { startedAt }) => {
    const { SAMLResponse } = fields as { SAMLResponse: string };
    const { identity, assertionKey, upstream } = await finishSamlSignIn(ctx, connector, SAMLResponse, startedAt);
    return { identity, ticket: assertionKey, upstream };
  },
  signOutUrl: async (ctx, connector, there) =>
    there?.kind === 'saml' ? samlSignOutUrl(ctx, connector, there) : undefined,
  sharedLogout: async (ctx, sent) => {
    if (sent.binding === 'redirect') return samlLogout(ctx, sent);
    const { SAMLRequest, SAMLResponse, RelayState } = sent.fields;
    if ((SAMLRequest === undefined) === (SAMLResponse === undefined)) {
      fail('E_1', 'Post either SAMLRequest or SAMLResponse.');
    }
    if (SAMLResponse !== undefined) {
      // The answer to EduPass's own LogoutRequest: the session here ended before the browser left.
      return (await samlSignOutAnswered(ctx, SAMLResponse)) ? signedOutPage(ctx) : schoolSignOutFailedPage(ctx);
    }
    return samlLogout(ctx, { binding: 'post', samlRequest: SAMLRequest ?? '', relayState: RelayState });
  },
  metadata: serviceProviderMetadataOf,
};

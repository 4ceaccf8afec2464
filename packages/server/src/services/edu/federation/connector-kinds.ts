/**
 * The registry of school connector kinds (connector.ts): a new kind is a new folder with its
 * `connector.ts` and one line here.
 */
import type { SchoolConnectorKind } from '@edupass/protocol';
import { casConnector } from './cas/connector.ts';
import type { ReturnRoute, SchoolConnector } from './connector.ts';
import { oidcConnector } from './oidc/connector.ts';
import { samlConnector } from './saml/connector.ts';
import { workAppConnector } from './workapp/connector.ts';

const CONNECTORS: Record<SchoolConnectorKind, SchoolConnector> = {
  cas: casConnector,
  saml: samlConnector,
  oidc: oidcConnector,
  workapp: workAppConnector,
};

/** The implementation of a kind. */
export const connectorFor = (kind: SchoolConnectorKind): SchoolConnector => CONNECTORS[kind];

/** The kind whose school systems send the browser back to `route`. */
export const connectorReturningTo = (route: ReturnRoute): SchoolConnector => {
  const kind = Object.values(CONNECTORS).find((c) => c.returnRoute === route);
  if (kind === undefined) throw new Error(`No kind of school connector returns to ${route}.`);
  return kind;
};

/**
 * `edupass schools connectors` and `edupass schools connector add|set|mapping|enable|disable`: schools' own
 * sign-in systems (CAS, SAML, OAuth2 / OpenID Connect), as the console manages them
 * (services/edu/federation/connectors.ts checks them alike).
 */
import { readFileSync } from 'node:fs';
import type { Context } from '../context.ts';
import { ApiError } from '../errors.ts';
import {
  addConnector,
  type ConnectorView,
  editConnector,
  listConnectors,
  setConnectorMapping,
  switchConnector,
} from '../services/edu/federation/connectors.ts';
import { OIDC_PRESETS } from '../services/edu/federation/oidc/settings.ts';

export const SCHOOLS_USAGE = `  schools connectors                       every school's sign-in connector
  schools connector add <school_id> <code> --name <name> --server <CAS prefix URL>
           [--cas-version 2.0|3.0] [--mapping <JSON>]
                                           let a school's pupils and teachers sign in with its CAS server
  schools connector add <school_id> <code> --name <name> --saml-metadata <federation metadata URL>
           --federation-cert <PEM file> --idp <entity ID> [--refresh-minutes <n>] [--mapping <JSON>]
                                           …or as an institution of a SAML federation (CARSI)
  schools connector add <school_id> <code> --type oidc --name <name> [--preset ${Object.keys(OIDC_PRESETS).join('|')}]
           --client-id <id> --client-secret-file <file> [--issuer <URL>] [--protocol oidc|oauth2]
           [--scopes "openid profile"] [--authorization-endpoint <URL>] [--token-endpoint <URL>]
           [--userinfo-endpoint <URL>] [--token-auth client_secret_basic|client_secret_post] [--mapping <JSON>]
                                           …or with an OAuth2 / OpenID Connect education platform
  schools connector set <connector_id> [--name <name>] [--server-url <CAS prefix URL>] [--cas-version 2.0|3.0]
           [--saml-metadata <URL>] [--federation-cert <PEM file>] [--idp <entity ID>] [--refresh-minutes <n>]
           [--preset <p>] [--protocol oidc|oauth2] [--issuer <URL>] [--client-id <id>] [--client-secret-file <file>]
           [--scopes "openid profile"] [--authorization-endpoint <URL>] [--token-endpoint <URL>]
           [--userinfo-endpoint <URL>] [--token-auth <method>]
                                           change a connector's name and the settings given (code, kind and
                                           identity links stay; --client-secret-file rotates the secret)
  schools connector mapping <connector_id> <JSON>
                                           set a connector's attribute mapping (left-out keys: defaults)
  schools connector disable|enable <connector_id>
                                           refuse a connector's sign-ins, or take them again`;

export const SCHOOLS_OPTIONS = {
  server: { type: 'string' },
  'server-url': { type: 'string' },
  'cas-version': { type: 'string' },
  'saml-metadata': { type: 'string' },
  'federation-cert': { type: 'string' },
  idp: { type: 'string' },
  'refresh-minutes': { type: 'string' },
  mapping: { type: 'string' },
  type: { type: 'string' },
  preset: { type: 'string' },
  protocol: { type: 'string' },
  issuer: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-file': { type: 'string' },
  scopes: { type: 'string' },
  'authorization-endpoint': { type: 'string' },
  'token-endpoint': { type: 'string' },
  'userinfo-endpoint': { type: 'string' },
  'token-auth': { type: 'string' },
} as const;

export interface SchoolsValues {
  name?: string | undefined;
  server?: string | undefined;
  'server-url'?: string | undefined;
  'cas-version'?: string | undefined;
  'saml-metadata'?: string | undefined;
  'federation-cert'?: string | undefined;
  idp?: string | undefined;
  'refresh-minutes'?: string | undefined;
  mapping?: string | undefined;
  type?: string | undefined;
  preset?: string | undefined;
  protocol?: string | undefined;
  issuer?: string | undefined;
  'client-id'?: string | undefined;
  'client-secret-file'?: string | undefined;
  scopes?: string | undefined;
  'authorization-endpoint'?: string | undefined;
  'token-endpoint'?: string | undefined;
  'userinfo-endpoint'?: string | undefined;
  'token-auth'?: string | undefined;
}

const readFileOption = (file: string | undefined, option: string, what: string) => {
  try {
    return readFileSync(file ?? '', 'utf8');
  } catch {
    throw new Error(`--${option} must name a readable ${what} file (${file || 'none given'}).`);
  }
};

/**
 * An education platform's settings from the options. The client secret is read from a file, never
 * from the command line (which other users of the machine can see in the process list).
 */
const oidcSettingsOf = (values: SchoolsValues, secretRequired = true) => {
  const secretFile = values['client-secret-file'];
  const given = {
    preset: values.preset,
    protocol: values.protocol,
    issuer: values.issuer,
    client_id: values['client-id'],
    client_secret:
      secretRequired || secretFile !== undefined
        ? readFileOption(secretFile, 'client-secret-file', 'client secret').trim()
        : undefined,
    scopes: values.scopes?.split(/[\s,]+/).filter((scope) => scope !== ''),
    authorization_endpoint: values['authorization-endpoint'],
    token_endpoint: values['token-endpoint'],
    userinfo_endpoint: values['userinfo-endpoint'],
    token_auth: values['token-auth'],
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
};

/** The connector's kind and settings from the options: SAML when a federation's metadata is named. */
const kindAndSettings = (values: SchoolsValues) => {
  const type = values.type ?? (values['saml-metadata'] === undefined ? 'cas' : 'saml');
  if (type === 'oidc') return { kind: 'oidc', settings: oidcSettingsOf(values) };
  if (type !== 'saml') {
    const serverUrl = values['server-url'] ?? values.server;
    return { kind: 'cas', settings: { server_url: serverUrl, version: values['cas-version'] ?? '3.0' } };
  }
  const cert = readFileOption(values['federation-cert'], 'federation-cert', 'PEM');
  const refresh = values['refresh-minutes'];
  return {
    kind: 'saml',
    settings: {
      metadata_url: values['saml-metadata'],
      federation_cert: cert,
      idp_entity_id: values.idp,
      ...(refresh === undefined ? {} : { refresh_minutes: Number(refresh) }),
    },
  };
};

/** The settings an edit names (`schools connector set`): only the options given, of every kind. */
const editedSettings = (values: SchoolsValues) => {
  const refresh = values['refresh-minutes'];
  const cert = values['federation-cert'];
  const given = {
    server_url: values['server-url'] ?? values.server,
    version: values['cas-version'],
    metadata_url: values['saml-metadata'],
    federation_cert: cert === undefined ? undefined : readFileOption(cert, 'federation-cert', 'PEM'),
    idp_entity_id: values.idp,
    refresh_minutes: refresh === undefined ? undefined : Number(refresh),
    ...oidcSettingsOf(values, false),
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
};

const describe = (c: ConnectorView) =>
  `${c.code}  ${c.kind}  school ${c.school_id}  ${c.name}${c.enabled ? '' : ' (off)'}\n  ${JSON.stringify(c.settings)}\n  mapping ${JSON.stringify(c.mapping)}`;

const mappingOf = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('--mapping must be JSON, e.g. {"role_attribute":"userType","pupil_values":["XS"]}.');
  }
};

/** The lines to print for `schools …`, or undefined for a sub-command it does not know. */
export const runSchools = async (ctx: Context, args: string[], values: SchoolsValues): Promise<string | undefined> => {
  const [sub, verb, schoolId, code] = args;
  const connectorId = () => {
    const id = Number(schoolId);
    if (!Number.isSafeInteger(id) || id < 1) throw new Error('The connector id must be a whole number.');
    return id;
  };
  try {
    if (sub === 'connectors') {
      const all = await listConnectors(ctx);
      return all.length === 0 ? 'No school has a sign-in connector.' : all.map(describe).join('\n');
    }
    if (sub === 'connector' && verb === 'add' && schoolId && code) {
      const added = await addConnector(ctx, undefined, Number(schoolId), {
        code,
        name: values.name ?? '',
        ...kindAndSettings(values),
        mapping: mappingOf(values.mapping) ?? {},
      });
      return describe(added);
    }
    if (sub === 'connector' && verb === 'set' && schoolId) {
      const settings = editedSettings(values);
      if (values.name === undefined && Object.keys(settings).length === 0) {
        throw new Error('Name what to change: --name, --server-url, --issuer, --client-secret-file, …');
      }
      return describe(await editConnector(ctx, undefined, connectorId(), { name: values.name, settings }));
    }
    if (sub === 'connector' && verb === 'mapping' && schoolId && code) {
      return describe(await setConnectorMapping(ctx, undefined, connectorId(), mappingOf(code)));
    }
    if (sub === 'connector' && (verb === 'disable' || verb === 'enable') && schoolId) {
      return describe(await switchConnector(ctx, undefined, connectorId(), verb === 'enable'));
    }
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) throw new Error(error.message);
    throw error;
  }
};

/**
 * Schools' own sign-in systems, configured by an operator (console or CLI) and stored as data: a new
 * school needs no code. Each connector has a kind, a short code (in its addresses), settings and an
 * attribute mapping (services/edu/federation/identity-mapping.ts reads the mapping).
 */

import { SCHOOL_CONNECTOR_KINDS, type SchoolConnectorKind } from '@edupass/protocol';
import type { Selectable } from 'kysely';
import type { CasServer } from '../../../adapters/cas.ts';
import type { Context } from '../../../context.ts';
import { fail, invalidRequest } from '../../../errors.ts';
import type { SchoolConnectorsTable } from '../../../store/edu/federation/connector-schema.ts';
import {
  allConnectors,
  enabledConnectors,
  findConnector,
  findConnectorByCode,
  insertConnector,
  setConnectorEnabled,
  updateConnectorMapping,
  updateConnectorSettings,
} from '../../../store/edu/federation/connectors.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import { eduAudit } from '../audit.ts';
import { type AttributeMapping, DEFAULT_MAPPING, readMapping, SAML_DEFAULT_MAPPING } from './identity-mapping.ts';
import { type OidcSettings, oidcSettings, oidcSettingsView, presetOf } from './oidc/settings.ts';
import { checkOidcIssuer } from './oidc/sign-in.ts';
import { checkFederationIdp, type SamlFederation, samlSettings } from './saml/federation-metadata.ts';
import { upstreamUrl } from './upstream-url.ts';
import {
  WORK_APP_MAPPING,
  type WorkAppSettings,
  workAppInput,
  workAppSettings,
  workAppSettingsView,
} from './workapp/settings.ts';

/** Lower-case letters, digits and dashes: it appears in addresses and is typed by operators. */
const CODE = /^[a-z0-9][a-z0-9-]{1,39}$/;

interface ConnectorBase {
  id: number;
  schoolId: number;
  code: string;
  name: string;
  mapping: AttributeMapping;
  enabled: boolean;
  /**
   * The school's system asks for the password at every sign-in, even with a session of its own open
   * (CAS `renew`, OpenID Connect `prompt=login` with `max_age=0`, SAML `ForceAuthn`), and a sign-in
   * it answered from that session is refused: for shared computers, where the next child would
   * otherwise be signed in as the last one.
   */
  forceSignIn: boolean;
  /**
   * Signing out of EduPass signs out of the school's system too (CAS `/logout`, OpenID Connect
   * RP-initiated logout, SAML single logout from EduPass): what the school's system needs for it is
   * kept, sealed, with each sign-in (services/edu/federation/sign-out.ts).
   */
  signOutAtSchool: boolean;
}

export type CasConnector = ConnectorBase & { kind: 'cas'; cas: CasServer };
/** One institution (identity provider) of a SAML federation, for one school. */
export type SamlConnector = ConnectorBase & { kind: 'saml'; saml: SamlFederation };
/** An education platform over OAuth2 or OpenID Connect (services/edu/federation/oidc/). */
export type OidcConnector = ConnectorBase & { kind: 'oidc'; oidc: OidcSettings };
/** The school's work app, WeCom or DingTalk (services/edu/federation/workapp/). */
export type WorkAppConnector = ConnectorBase & { kind: 'workapp'; workapp: WorkAppSettings };
export type Connector = CasConnector | SamlConnector | OidcConnector | WorkAppConnector;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const casSettings = (ctx: Context, settings: unknown): CasServer => {
  if (!isRecord(settings)) throw invalidRequest('settings must be an object.');
  const version = settings.version ?? '3.0';
  if (version !== '2.0' && version !== '3.0') throw invalidRequest("settings.version must be '2.0' or '3.0'.");
  return { serverUrl: upstreamUrl(ctx, settings.server_url, 'server_url'), version };
};

/** A yes-or-no setting: off unless set (connectors stored before it have none). */
const switchOf = (settings: unknown, key: 'force_sign_in' | 'sign_out_at_school'): boolean => {
  const value = isRecord(settings) ? (settings[key] ?? false) : false;
  if (typeof value !== 'boolean') throw invalidRequest(`settings.${key} must be true or false.`);
  return value;
};

/** The settings every kind has. */
const switchesOf = (settings: unknown) => ({
  forceSignIn: switchOf(settings, 'force_sign_in'),
  signOutAtSchool: switchOf(settings, 'sign_out_at_school'),
});

const connectorOf = (ctx: Context, row: Selectable<SchoolConnectorsTable>): Connector => {
  const settings: unknown = JSON.parse(row.settings);
  const base = {
    id: Number(row.id),
    schoolId: Number(row.school_id),
    code: row.code,
    name: row.name,
    mapping: readMapping(JSON.parse(row.mapping)),
    enabled: row.enabled === 1,
    ...switchesOf(settings),
  };
  if (row.kind === 'oidc') return { ...base, kind: 'oidc', oidc: oidcSettings(ctx, row.code, settings, true) };
  if (row.kind === 'workapp') {
    return { ...base, kind: 'workapp', workapp: workAppSettings(ctx, row.code, settings, true) };
  }
  return row.kind === 'saml'
    ? { ...base, kind: 'saml', saml: samlSettings(ctx, settings) }
    : { ...base, kind: 'cas', cas: casSettings(ctx, settings) };
};

/**
 * Settings in the names an operator writes: as stored (`stored`: an OAuth2 client secret sealed) or
 * as shown (no secret at all; the redirect URI to register with the platform).
 */
const settingsView = (ctx: Context, c: Connector, stored: boolean) => ({
  ...kindSettingsView(ctx, c, stored),
  force_sign_in: c.forceSignIn,
  sign_out_at_school: c.signOutAtSchool,
});

const kindSettingsView = (ctx: Context, c: Connector, stored: boolean) => {
  if (c.kind === 'oidc') return oidcSettingsView(ctx, c.code, c.oidc, stored);
  if (c.kind === 'workapp') return workAppSettingsView(ctx, c.code, c.workapp, stored);
  return c.kind === 'saml'
    ? {
        metadata_url: c.saml.metadataUrl,
        federation_cert: c.saml.federationCert,
        idp_entity_id: c.saml.idpEntityId,
        refresh_minutes: c.saml.refreshMinutes,
      }
    : { server_url: c.cas.serverUrl, version: c.cas.version };
};

const connectorView = (ctx: Context, c: Connector) => ({
  id: c.id,
  school_id: c.schoolId,
  code: c.code,
  kind: c.kind,
  name: c.name,
  settings: settingsView(ctx, c, false),
  mapping: c.mapping,
  enabled: c.enabled,
});
export type ConnectorView = ReturnType<typeof connectorView>;

/** The mapping defaults of a kind (an OAuth2 connector's: its preset's). */
const defaultMapping = (kind: SchoolConnectorKind, settings: unknown) => {
  if (kind === 'workapp') return WORK_APP_MAPPING;
  return kind === 'saml' ? SAML_DEFAULT_MAPPING : kind === 'oidc' ? presetOf(settings).mapping : DEFAULT_MAPPING;
};

/**
 * A connector of `kind` with an operator's settings checked: the add's and the edit's one check.
 * `sealedSecret`: an OAuth2 client secret kept as sealed (the edit left it blank); otherwise the
 * settings carry a new one in clear, sealed here.
 */
const withSettings = (
  ctx: Context,
  connector: Omit<ConnectorBase, 'forceSignIn' | 'signOutAtSchool'>,
  kind: SchoolConnectorKind,
  settings: unknown,
  sealedSecret?: string,
): Connector => {
  const base = { ...connector, ...switchesOf(settings) };
  if (kind === 'saml') return { ...base, kind, saml: samlSettings(ctx, settings) };
  if (kind === 'cas') return { ...base, kind, cas: casSettings(ctx, settings) };
  if (kind === 'workapp') return { ...base, kind, workapp: workAppInput(ctx, base, settings, sealedSecret) };
  const oidc =
    sealedSecret === undefined
      ? oidcSettings(ctx, base.code, settings, false)
      : oidcSettings(
          ctx,
          base.code,
          { ...(isRecord(settings) ? settings : {}), client_secret_sealed: sealedSecret },
          true,
        );
  if (base.forceSignIn && oidc.protocol === 'oauth2') {
    throw invalidRequest(
      "settings.force_sign_in needs protocol 'oidc': a plain OAuth2 platform does not say when the person signed in.",
    );
  }
  if (base.signOutAtSchool && oidc.protocol === 'oauth2') {
    throw invalidRequest("settings.sign_out_at_school needs protocol 'oidc': a plain OAuth2 platform has no sign-out.");
  }
  return { ...base, kind, oidc };
};

/**
 * The federation's metadata, or the platform's discovery document, is fetched and checked now, so a
 * wrong key, entity ID or issuer shows at once.
 */
const checkUpstream = async (ctx: Context, connector: Connector) => {
  if (connector.kind === 'saml') await checkFederationIdp(ctx, connector.saml);
  if (connector.kind === 'oidc') await checkOidcIssuer(ctx, connector.oidc);
};

export interface ConnectorInput {
  code: string;
  kind: string;
  name: string;
  settings: unknown;
  mapping?: unknown;
}

/**
 * Adds a connector to a school: the console's call (audited `school.connector.add`) and the command
 * line's (`operatorId` undefined).
 */
export const addConnector = async (
  ctx: Context,
  operatorId: number | undefined,
  schoolId: number,
  input: ConnectorInput,
): Promise<ConnectorView> => {
  if (!(await findSchool(ctx.db, schoolId))) fail('E_2');
  if (!(SCHOOL_CONNECTOR_KINDS as readonly string[]).includes(input.kind)) {
    throw invalidRequest(`kind must be one of ${SCHOOL_CONNECTOR_KINDS.join(', ')}.`);
  }
  const kind = input.kind as SchoolConnectorKind;
  const code = input.code.trim().toLowerCase();
  // `saml` is a path segment of the SAML endpoints shared by every connector.
  if (!CODE.test(code) || code === 'saml') {
    throw invalidRequest("code must be 2–40 lower-case letters, digits or dashes (not 'saml').");
  }
  const name = input.name.trim();
  if (name === '') throw invalidRequest('name must not be empty.');
  const base = {
    id: 0,
    schoolId,
    code,
    name,
    enabled: true,
    mapping: readMapping(input.mapping ?? {}, defaultMapping(kind, input.settings)),
  };
  const connector = withSettings(ctx, base, kind, input.settings);
  if (await findConnectorByCode(ctx.db, code)) throw invalidRequest(`A connector with code ${code} exists already.`);
  await checkUpstream(ctx, connector);
  const row = await insertConnector(ctx.db, {
    school_id: schoolId,
    code,
    kind,
    name,
    settings: JSON.stringify(settingsView(ctx, connector, true)),
    mapping: JSON.stringify(connector.mapping),
    enabled: 1,
    created_at: ctx.now(),
  });
  if (operatorId !== undefined)
    await eduAudit(ctx, operatorId, 'school.connector.add', `school:${schoolId}`, `${kind} ${code}`);
  return connectorView(ctx, connectorOf(ctx, row));
};

/**
 * Sets a connector's attribute mapping (the console's call audited `school.connector.mapping`, the
 * command line's not); what it leaves out takes
 * the kind's defaults. Links already made stay: the subject hash is of the upstream subject, so
 * changing `subject` makes the next sign-ins new identities.
 */
export const setConnectorMapping = async (
  ctx: Context,
  operatorId: number | undefined,
  id: number,
  mapping: unknown,
): Promise<ConnectorView> => {
  const current = (await findConnector(ctx.db, id)) ?? fail('E_2');
  const kind = current.kind as SchoolConnectorKind;
  const read = readMapping(mapping, defaultMapping(kind, JSON.parse(current.settings)));
  const row = (await updateConnectorMapping(ctx.db, id, JSON.stringify(read))) ?? fail('E_2');
  if (operatorId !== undefined) {
    await eduAudit(ctx, operatorId, 'school.connector.mapping', `school:${row.school_id}`, `${row.kind} ${row.code}`);
  }
  return connectorView(ctx, connectorOf(ctx, row));
};

export interface ConnectorEdit {
  name?: string | undefined;
  /** Only the settings to change; the others stay. An OAuth2 `client_secret` left blank keeps the sealed one. */
  settings?: unknown;
}

/** Settings an edit may not name: the sealed secret is only ever made here, the addresses are EduPass's own. */
const NOT_EDITABLE = ['client_secret_sealed', 'redirect_uri', 'backchannel_logout_uri', 'post_logout_redirect_uri'];

/**
 * Changes a connector's name and settings, checked as an added connector's are (its code and kind
 * stay, so its identity links and addresses do): the console's call (audited `school.connector.settings`
 * with the names of what changed, never a secret) and the command line's (`operatorId` undefined).
 */
export const editConnector = async (
  ctx: Context,
  operatorId: number | undefined,
  id: number,
  edit: ConnectorEdit,
): Promise<ConnectorView> => {
  const row = (await findConnector(ctx.db, id)) ?? fail('E_2');
  const current = connectorOf(ctx, row);
  const patch = edit.settings ?? {};
  if (!isRecord(patch)) throw invalidRequest('settings must be an object.');
  const refused = Object.keys(patch).find((key) => NOT_EDITABLE.includes(key));
  if (refused !== undefined) throw invalidRequest(`settings.${refused} cannot be set.`);
  const { client_secret: newSecret, ...rest } = patch;
  const rotated = newSecret !== undefined && newSecret !== '';
  const secretKept = current.kind === 'oidc' || current.kind === 'workapp';
  if (rotated && !secretKept) throw invalidRequest('settings.client_secret is for OAuth2 and work app connectors.');
  const { client_secret_sealed: sealed, ...stored } = settingsView(ctx, current, true) as Record<string, unknown>;
  const name = edit.name === undefined ? current.name : edit.name.trim();
  if (name === '') throw invalidRequest('name must not be empty.');
  const base = {
    id,
    schoolId: current.schoolId,
    code: current.code,
    name,
    enabled: current.enabled,
    mapping: current.mapping,
  };
  const merged = rotated ? { ...stored, ...rest, client_secret: newSecret } : { ...stored, ...rest };
  const connector = withSettings(ctx, base, current.kind, merged, rotated || !secretKept ? undefined : String(sealed));
  const after = settingsView(ctx, connector, true) as Record<string, unknown>;
  const settings = JSON.stringify(after);
  // What changed, as read (keys the settings do not have are not named); the secret by name only.
  const before: Record<string, unknown> = { ...stored, client_secret_sealed: sealed };
  const changed = [
    ...(name === current.name ? [] : ['name']),
    ...Object.keys(after)
      .filter((key) => JSON.stringify(after[key]) !== JSON.stringify(before[key]))
      .map((key) => (key === 'client_secret_sealed' ? 'client_secret' : key)),
  ];
  if (settings !== row.settings) await checkUpstream(ctx, connector);
  const updated = (await updateConnectorSettings(ctx.db, id, name, settings)) ?? fail('E_2');
  if (operatorId !== undefined) {
    const detail = `${row.kind} ${row.code}: ${changed.join(', ') || 'nothing changed'}`;
    await eduAudit(ctx, operatorId, 'school.connector.settings', `school:${row.school_id}`, detail);
  }
  return connectorView(ctx, connectorOf(ctx, updated));
};

/**
 * The console's switch (audited `school.connector.disable` / `enable`) and the command line's
 * (`operatorId` undefined); E_2 for no such connector.
 */
export const switchConnector = async (
  ctx: Context,
  operatorId: number | undefined,
  id: number,
  enabled: boolean,
): Promise<ConnectorView> => {
  const row = (await setConnectorEnabled(ctx.db, id, enabled)) ?? fail('E_2');
  const action = enabled ? 'school.connector.enable' : 'school.connector.disable';
  if (operatorId !== undefined)
    await eduAudit(ctx, operatorId, action, `school:${row.school_id}`, `${row.kind} ${row.code}`);
  return connectorView(ctx, connectorOf(ctx, row));
};

export const listConnectors = async (ctx: Context): Promise<ConnectorView[]> =>
  (await allConnectors(ctx.db)).map((row) => connectorView(ctx, connectorOf(ctx, row)));

/** The connector a sign-in names; an unknown or switched-off one is E_2, alike. */
export const activeConnector = async (ctx: Context, code: string): Promise<Connector> => {
  const row = await findConnectorByCode(ctx.db, code.toLowerCase());
  const connector = row && connectorOf(ctx, row);
  return connector?.enabled ? connector : fail('E_2');
};

/** The connector `id`, if it exists and is switched on. */
export const enabledConnectorById = async (ctx: Context, id: number): Promise<Connector | undefined> => {
  const row = await findConnector(ctx.db, id);
  const connector = row && connectorOf(ctx, row);
  return connector?.enabled ? connector : undefined;
};

/** The enabled SAML connectors whose institution is the identity provider `idpEntityId`. */
export const samlConnectorsOf = async (ctx: Context, idpEntityId: string): Promise<SamlConnector[]> =>
  (await allConnectors(ctx.db))
    .map((row) => connectorOf(ctx, row))
    .filter((c): c is SamlConnector => c.kind === 'saml' && c.enabled && c.saml.idpEntityId === idpEntityId);

/** What the "sign in with your school" chooser lists: no settings, no mapping. */
export const schoolChoices = async (ctx: Context) =>
  (await enabledConnectors(ctx.db)).map((c) => ({ code: c.code, name: c.name, school_name: c.school_name }));

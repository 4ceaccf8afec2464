/**
 * A school's work app (WeCom or DingTalk) as its sign-in: which vendor, the school's organisation
 * (its corpid), the app (WeCom's AgentId; DingTalk's Client ID), and the app's secret, sealed as an
 * OAuth2 connector's client secret is (never shown again; an edit left blank keeps it).
 */
import { isRecord, routes, WORK_APP_VENDORS, type WorkAppVendor } from '@edupass/protocol';
import type { Context } from '../../../../context.ts';
import { invalidRequest } from '../../../../errors.ts';
import { seal } from '../../../security/sealed-values.ts';
import { type AttributeMapping, DEFAULT_MAPPING } from '../identity-mapping.ts';
import { secretName } from '../oidc/settings.ts';
import { connectorAddress } from '../upstream-url.ts';

export interface WorkAppSettings {
  vendor: WorkAppVendor;
  /** The school's organisation: WeCom's corpid (ww…), DingTalk's corpId (ding…). */
  corpId: string;
  /** WeCom: the app's AgentId (digits). '' for DingTalk. */
  agentId: string;
  /** DingTalk: the app's Client ID (AppKey). '' for WeCom. */
  clientId: string;
  /** The app's secret (WeCom's Secret, DingTalk's Client Secret), sealed by the connector's code. */
  clientSecretSealed: string;
}

/**
 * The identity a work app's sign-in gives (sign-in.ts): `user` is `<vendor>:<userid>`, the key the
 * address book's roster gave the same person (roster/book-roster.ts); `role` is `pupil` or `guardian`
 * only where WeCom's home-school answer says so (a member's role is the one the roster gave).
 */
export const WORK_APP_MAPPING: AttributeMapping = {
  ...DEFAULT_MAPPING,
  subject: 'user',
  role_attribute: 'role',
  teacher_values: ['teacher'],
  pupil_values: ['pupil'],
  class_attribute: '',
  name_attribute: 'name',
};

const ID = /^[A-Za-z0-9_.-]{2,64}$/;

const idOf = (value: unknown, key: string) => {
  if (typeof value === 'string' && ID.test(value.trim())) return value.trim();
  throw invalidRequest(`settings.${key} must be given: up to 64 letters, digits, dots, dashes or underscores.`);
};

/** Settings as an operator wrote them (`client_secret` in clear, sealed here) or as stored (`stored`). */
export const workAppSettings = (ctx: Context, code: string, settings: unknown, stored: boolean): WorkAppSettings => {
  if (!isRecord(settings)) throw invalidRequest('settings must be an object.');
  const vendor = settings.vendor;
  if (!(WORK_APP_VENDORS as readonly unknown[]).includes(vendor)) {
    throw invalidRequest(`settings.vendor must be one of ${WORK_APP_VENDORS.join(', ')}.`);
  }
  const wecom = vendor === 'wecom';
  const agentId = wecom ? String(settings.agent_id ?? '').trim() : '';
  if (wecom && !/^\d{1,12}$/.test(agentId))
    throw invalidRequest('settings.agent_id must be the app’s AgentId (digits).');
  const secret = stored ? settings.client_secret_sealed : settings.client_secret;
  if (typeof secret !== 'string' || secret.trim() === '' || secret.length > 4096) {
    throw invalidRequest('settings.client_secret must be given (the app’s secret).');
  }
  return {
    vendor: vendor as WorkAppVendor,
    corpId: idOf(settings.corp_id, 'corp_id'),
    agentId,
    clientId: wecom ? '' : idOf(settings.client_id, 'client_id'),
    clientSecretSealed: stored ? secret : seal(ctx.keys.sealing, secret.trim(), secretName(code)),
  };
};

/** The address the vendor sends the browser back to: its domain is registered with the app as trusted. */
export const workAppRedirectUri = (ctx: Context, code: string) =>
  connectorAddress(ctx, routes.finishAppSignIn.path, code).toString();

/** Settings as stored (the sealed secret) and as shown (no secret; the redirect address to register). */
export const workAppSettingsView = (ctx: Context, code: string, s: WorkAppSettings, stored: boolean) => ({
  vendor: s.vendor,
  corp_id: s.corpId,
  ...(s.vendor === 'wecom' ? { agent_id: s.agentId } : { client_id: s.clientId }),
  ...(stored ? { client_secret_sealed: s.clientSecretSealed } : { redirect_uri: workAppRedirectUri(ctx, code) }),
});

/**
 * A work app's settings as an add or an edit gives them: the secret new (in clear) or kept sealed
 * (`sealedSecret`: the edit left it blank). Neither vendor offers a forced sign-in or a sign-out there.
 */
export const workAppInput = (
  ctx: Context,
  base: { code: string; forceSignIn: boolean; signOutAtSchool: boolean },
  settings: unknown,
  sealedSecret: string | undefined,
): WorkAppSettings => {
  if (base.forceSignIn || base.signOutAtSchool) {
    throw invalidRequest('settings.force_sign_in and sign_out_at_school are not offered by WeCom or DingTalk.');
  }
  if (sealedSecret === undefined) return workAppSettings(ctx, base.code, settings, false);
  const kept = { ...(isRecord(settings) ? settings : {}), client_secret_sealed: sealedSecret };
  return workAppSettings(ctx, base.code, kept, true);
};

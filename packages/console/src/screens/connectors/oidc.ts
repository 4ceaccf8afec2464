/**
 * An OAuth2 / OpenID Connect education platform: a preset picked once, the issuer (discovery) or the
 * three endpoints (plain OAuth2), the client, its secret (sealed, never shown again) and its scopes.
 */
import { OIDC_PRESET_NAMES } from '@edupass/protocol';
import type { KindForm, SettingField } from './kind-form.ts';

const fields: readonly SettingField[] = [
  { key: 'issuer', optional: true },
  { key: 'client_id' },
  { key: 'client_secret', secret: true },
  { key: 'scopes', optional: true },
  { key: 'authorization_endpoint', optional: true },
  { key: 'token_endpoint', optional: true },
  { key: 'userinfo_endpoint', optional: true },
];

export const oidc: KindForm = {
  fields,
  editable: fields,
  choice: {
    key: 'preset',
    options: (w) => OIDC_PRESET_NAMES.map((preset) => ({ value: preset, label: w(`preset.${preset}`) })),
    initial: 'oidc',
    editable: false,
  },
  // Scopes are typed space separated; none typed leaves the preset's.
  value: (key, text) => (key !== 'scopes' ? text : text === '' ? undefined : text.split(/\s+/)),
};

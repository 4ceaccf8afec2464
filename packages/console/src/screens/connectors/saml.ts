/**
 * An institution of a SAML federation (CARSI): the federation's signed metadata and its signing
 * certificate, the institution's entity ID, and, once added, how often the metadata is read again.
 */
import type { KindForm, SettingField } from './kind-form.ts';

const fields: readonly SettingField[] = [
  { key: 'metadata_url' },
  { key: 'federation_cert', multiline: true },
  { key: 'idp_entity_id' },
];

export const saml: KindForm = {
  fields,
  editable: [...fields, { key: 'refresh_minutes' }],
  value: (key, text) => (key === 'refresh_minutes' ? Number(text) : text),
};

/**
 * The school's work app, WeCom or DingTalk: the vendor picked once, the school's organisation (corpid),
 * the app (WeCom's AgentId, DingTalk's Client ID) and its secret (sealed, never shown again).
 */
import { WORK_APP_VENDORS } from '@edupass/protocol';
import type { KindForm, SettingField } from './kind-form.ts';

const fields: readonly SettingField[] = [
  { key: 'corp_id' },
  { key: 'agent_id', optional: true },
  { key: 'client_id', optional: true },
  { key: 'client_secret', secret: true },
];

export const workapp: KindForm = {
  fields,
  editable: fields,
  choice: {
    key: 'vendor',
    options: (w) => WORK_APP_VENDORS.map((vendor) => ({ value: vendor, label: w(`vendor.${vendor}`) })),
    initial: 'wecom',
    editable: false,
  },
};

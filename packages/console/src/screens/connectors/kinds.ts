/** The kinds of connector, and what the forms make of each one's text and of a connector's stored settings. */
import { SCHOOL_CONNECTOR_KINDS, type SchoolConnectorKind } from '@edupass/protocol';
import type { SchoolConnector } from '../../api/edu-api.ts';
import { cas } from './cas.ts';
import type { KindForm } from './kind-form.ts';
import { oidc } from './oidc.ts';
import { saml } from './saml.ts';
import { workapp } from './workapp.ts';

export const KINDS = SCHOOL_CONNECTOR_KINDS;
export type Kind = SchoolConnectorKind;

export const KIND_FORMS: Record<Kind, KindForm> = { cas, saml, oidc, workapp };

export const isKind = (kind: string): kind is Kind => (KINDS as readonly string[]).includes(kind);

/** A connector's stored settings (none for a new one). */
export const storedSettings = (connector: SchoolConnector | undefined) =>
  (connector?.settings ?? {}) as Record<string, unknown>;

/** One stored setting of a connector as text ('' when it has none). */
export const settingOf = (connector: SchoolConnector, key: string) => {
  const value = storedSettings(connector)[key];
  return typeof value === 'string' ? value : '';
};

/** The settings an edit can change, as the form's text fields (the client secret empty: it is never shown). */
export const settingsText = (connector: SchoolConnector, kind: Kind): Record<string, string> => {
  const settings = storedSettings(connector);
  return Object.fromEntries(
    KIND_FORMS[kind].editable.map(({ key }) => {
      const value = settings[key];
      return [key, Array.isArray(value) ? value.join(' ') : value === undefined || value === null ? '' : String(value)];
    }),
  );
};

/** The fields' trimmed text as the server reads it, each field that reads as nothing left out. */
const readFields = (form: KindForm, keys: readonly string[], text: Record<string, string>) => {
  const settings: Record<string, unknown> = {};
  for (const key of keys) {
    const trimmed = text[key]?.trim() ?? '';
    const value = form.value ? form.value(key, trimmed) : trimmed;
    if (value !== undefined) settings[key] = value;
  }
  return settings;
};

/** A new connector's settings: the fields filled in (empty ones left out) and the kind's choice. */
export const newSettings = (kind: Kind, text: Record<string, string>, choices: Record<string, string>) => {
  const form = KIND_FORMS[kind];
  const given = form.fields.map(({ key }) => key).filter((key) => (text[key]?.trim() ?? '') !== '');
  const settings = readFields(form, given, text);
  if (form.choice) settings[form.choice.key] = choices[form.choice.key];
  return settings;
};

/** An edited connector's settings: every field an edit shows (a blank secret keeps the sealed one), and its choice. */
export const editedSettings = (kind: Kind, text: Record<string, string>, choice: string) => {
  const form = KIND_FORMS[kind];
  const settings = readFields(
    form,
    form.editable.map(({ key }) => key),
    text,
  );
  if (form.choice?.editable) settings[form.choice.key] = choice;
  return settings;
};

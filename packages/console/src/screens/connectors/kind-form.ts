/** What the connector forms know of one kind of connector: its settings, its own choice, how its text is read. */
import type { Words } from './words.ts';

/** One setting a kind asks for, in the name the server reads. */
export interface SettingField {
  key: string;
  /** May be left empty. @default false */
  optional?: boolean;
  /** Sealed by the server: typed into a masked field and never shown again; an edit left blank keeps it. @default false */
  secret?: boolean;
  /** Several lines (a PEM certificate). @default false */
  multiline?: boolean;
}

/** A kind's own choice, above its fields: a setting picked from a short list. */
export interface KindChoice {
  /** The setting it fills in (its label is `set.<key>`). */
  key: 'version' | 'preset' | 'vendor';
  options(w: Words): readonly { value: string; label: string }[];
  /** A new connector's choice before anything is picked. */
  initial: string;
  /** An edit offers it too. */
  editable: boolean;
}

export interface KindForm {
  /** The settings a new connector of this kind is given. */
  fields: readonly SettingField[];
  /** Those an edit can change: the add's, and any that only an edit sets. */
  editable: readonly SettingField[];
  choice?: KindChoice;
  /** A field's trimmed text as the server reads it; `undefined` leaves it out. @default the text */
  value?(key: string, text: string): unknown;
}

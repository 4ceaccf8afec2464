/** The fields the connector forms are made of: each one a label above its control, as the console's forms are. */
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type ReactNode, useEffect } from 'react';
import type { SchoolConnector } from '../../api/edu-api.ts';
import { useConsoleText } from '../../i18n/i18n.ts';
import type { KindChoice, SettingField } from './kind-form.ts';
import { storedSettings } from './kinds.ts';
import { useWords, type Word } from './words.ts';

const Labelled = (props: { id: string; label: string; children: ReactNode }) => (
  <div className="console-form">
    <label htmlFor={props.id}>{props.label}</label>
    {props.children}
  </div>
);

interface TextProps {
  id: string;
  label: string;
  value: string;
  required: boolean;
  onChange: (value: string) => void;
}

const textControl = (props: TextProps) => ({
  id: props.id,
  value: props.value,
  required: props.required,
  onChange: (e: { target: { value: string } }) => props.onChange(e.target.value),
});

/** A line of text: a connector's code and name, a mapping's attribute. */
export const TextField = (props: TextProps) => (
  <Labelled id={props.id} label={props.label}>
    <input {...textControl(props)} />
  </Labelled>
);

/** One setting: the PEM certificate in a text area, the client secret masked. */
export const SettingInput = (props: TextProps & { field?: SettingField }) => (
  <Labelled id={props.id} label={props.label}>
    {props.field?.multiline ? (
      <textarea {...textControl(props)} rows={4} />
    ) : (
      <input {...textControl(props)} type={props.field?.secret ? 'password' : 'text'} autoComplete="off" />
    )}
  </Labelled>
);

/** A choice from a short list: the school, the kind, a platform's preset, a CAS version. */
export const SelectField = (props: {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string | number; label: string }[];
  required?: boolean;
  onChange: (value: string) => void;
}) => (
  <Labelled id={props.id} label={props.label}>
    <select
      id={props.id}
      required={props.required}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    >
      {props.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  </Labelled>
);

/** A kind's own choice: a CAS version, a platform's preset. */
export const ChoiceField = (props: {
  idPrefix: string;
  choice: KindChoice;
  value: string;
  onChange: (value: string) => void;
}) => {
  const w = useWords();
  return (
    <SelectField
      id={`${props.idPrefix}-${props.choice.key}`}
      label={w(`set.${props.choice.key}`)}
      value={props.value}
      options={props.choice.options(w)}
      onChange={props.onChange}
    />
  );
};

/**
 * A kind's settings, each under its label. On an edit a secret left blank keeps the sealed one, so it
 * is asked for as a new one and may stay empty.
 */
export const SettingFields = (props: {
  idPrefix: string;
  fields: readonly SettingField[];
  editing: boolean;
  text: Record<string, string>;
  onChange: (text: Record<string, string>) => void;
}) => {
  const w = useWords();
  return (
    <>
      {props.fields.map((field) => {
        const keeping = props.editing && field.secret === true;
        return (
          <SettingInput
            key={field.key}
            id={`${props.idPrefix}-${field.key}`}
            label={w(`set.${field.key}${keeping ? '.keep' : ''}` as Word)}
            field={field}
            value={props.text[field.key] ?? ''}
            required={!field.optional && !keeping}
            onChange={(value) => props.onChange({ ...props.text, [field.key]: value })}
          />
        );
      })}
    </>
  );
};

/** The yes-or-no settings every kind has. */
const SWITCHES = ['force_sign_in', 'sign_out_at_school'] as const;
type Switch = (typeof SWITCHES)[number];
export type Switches = Record<Switch, boolean>;

/** A connector's switches (a new connector's: both off). */
export const switchesOf = (connector: SchoolConnector | undefined): Switches => {
  const settings = storedSettings(connector);
  return { force_sign_in: settings.force_sign_in === true, sign_out_at_school: settings.sign_out_at_school === true };
};

/** The switches as checkboxes, each with what it is for. */
export const SwitchBoxes = (props: { idPrefix: string; value: Switches; onChange: (value: Switches) => void }) => {
  const w = useWords();
  return (
    <>
      {SWITCHES.map((key) => {
        const id = `${props.idPrefix}-${key.replaceAll('_', '-')}`;
        return (
          <div key={key} className="console-form">
            <label className="console-check">
              <input
                id={id}
                type="checkbox"
                checked={props.value[key]}
                aria-describedby={`${id}-help`}
                onChange={(e) => props.onChange({ ...props.value, [key]: e.target.checked })}
              />
              <span>{w(`set.${key}`)}</span>
            </label>
            <p id={`${id}-help`} className="console-muted">
              {w(`set.${key}.help`)}
            </p>
          </div>
        );
      })}
    </>
  );
};

/** A form's error and its submit button. */
export const FormEnd = (props: { error: string | null; busy: boolean; save: string }) => (
  <>
    <FormError message={props.error} />
    <button type="submit" className="console-button" disabled={props.busy}>
      {props.save}
    </button>
  </>
);

/** What an edit form below the list is given: its connector, and what to do when it closes (with a notice, or none when cancelled). */
export interface EditFormProps {
  connector: SchoolConnector;
  done: (message: string | null) => void;
}

/**
 * An edit form's save, as an action whose failure it shows. The form opens below the list: its first
 * field takes the focus, so it is seen and typed into at once.
 */
export const useEditAction = (firstField: string) => {
  const action = useAction(useConsoleText().errorText);
  useEffect(() => document.getElementById(firstField)?.focus(), [firstField]);
  return action;
};

/** An edit form's error, its save and its way back without saving. */
export const EditFormEnd = (props: { error: string | null; busy: boolean; save: string; cancel: () => void }) => {
  const w = useWords();
  return (
    <>
      <FormEnd {...props} />
      <button type="button" className="console-button console-button-quiet" onClick={props.cancel}>
        {w('cancel')}
      </button>
    </>
  );
};

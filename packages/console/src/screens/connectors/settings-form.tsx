/** A connector's settings edited: its name, its kind's choice and settings, its switches (its code and kind stay). */
import { type FormEvent, useState } from 'react';
import { editSchoolConnector } from '../../api/edu-api.ts';
import { Card } from '../../ui/table.tsx';
import {
  ChoiceField,
  EditFormEnd,
  type EditFormProps,
  SettingFields,
  SettingInput,
  SwitchBoxes,
  switchesOf,
  useEditAction,
} from './fields.tsx';
import { editedSettings, isKind, KIND_FORMS, settingOf, settingsText } from './kinds.ts';
import { useWords } from './words.ts';

export const SettingsForm = ({ connector, done }: EditFormProps) => {
  const w = useWords();
  const action = useEditAction('settings-name');
  const kind = isKind(connector.kind) ? connector.kind : 'cas';
  const { choice, editable } = KIND_FORMS[kind];
  const [name, setName] = useState(connector.name);
  const [form, setForm] = useState(() => settingsText(connector, kind));
  const [chosen, setChosen] = useState(() => (choice ? settingOf(connector, choice.key) || choice.initial : ''));
  const [switches, setSwitches] = useState(() => switchesOf(connector));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const settings = { ...editedSettings(kind, form, chosen), ...switches };
    if (await action.run(() => editSchoolConnector(connector.id, name, settings))) {
      done(w('settingsSaved', { name: name.trim() }));
    }
  };
  return (
    <Card id="connector-settings" title={w('settingsTitle', { name: connector.name, code: connector.code })}>
      <p className="console-muted">{w('settingsLead')}</p>
      <form className="console-form" onSubmit={submit}>
        <SettingInput id="settings-name" label={w('addName')} value={name} required onChange={setName} />
        {choice?.editable ? (
          <ChoiceField idPrefix="settings" choice={choice} value={chosen} onChange={setChosen} />
        ) : null}
        <SettingFields idPrefix="settings" fields={editable} editing text={form} onChange={setForm} />
        <SwitchBoxes idPrefix="settings" value={switches} onChange={setSwitches} />
        <EditFormEnd error={action.error} busy={action.busy} save={w('saveSettings')} cancel={() => done(null)} />
      </form>
    </Card>
  );
};

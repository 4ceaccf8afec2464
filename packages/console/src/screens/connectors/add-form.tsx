/** A new connector for a school: its school, kind, code and name, then its kind's choice and settings. */
import { OIDC_PRESET_ASKS, type OidcPresetName } from '@edupass/protocol';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import { addSchoolConnector, listSchools } from '../../api/edu-api.ts';
import { useConsoleText } from '../../i18n/i18n.ts';
import { Loaded } from '../../ui/status.tsx';
import { Card } from '../../ui/table.tsx';
import {
  ChoiceField,
  FormEnd,
  SelectField,
  SettingFields,
  SwitchBoxes,
  type Switches,
  switchesOf,
  TextField,
} from './fields.tsx';
import { KIND_FORMS, KINDS, type Kind, newSettings } from './kinds.ts';
import { useWords, type Word } from './words.ts';

/** Each kind's choice as it stands before anything is picked (a CAS version, a platform's preset). */
const FIRST_CHOICES: Record<string, string> = Object.fromEntries(
  KINDS.flatMap((kind) => {
    const choice = KIND_FORMS[kind].choice;
    return choice ? [[choice.key, choice.initial]] : [];
  }),
);

interface NewConnector {
  school: string;
  kind: Kind;
  code: string;
  name: string;
  choices: Record<string, string>;
  switches: Switches;
}

const EMPTY: NewConnector = {
  school: '',
  kind: 'oidc',
  code: '',
  name: '',
  choices: FIRST_CHOICES,
  switches: switchesOf(undefined),
};

/** The school, among those there are, and the kind. */
const SchoolAndKind = ({ form, set }: { form: NewConnector; set: (form: NewConnector) => void }) => {
  const w = useWords();
  const schools = useLoad(listSchools);
  return (
    <>
      <Loaded state={schools}>
        {(rows) => (
          <SelectField
            id="connector-school"
            label={w('addSchool')}
            required
            value={form.school}
            options={[
              { value: '', label: w('chooseSchool') },
              ...rows.map((school) => ({ value: school.id, label: school.name })),
            ]}
            onChange={(school) => set({ ...form, school })}
          />
        )}
      </Loaded>
      <SelectField
        id="connector-kind"
        label={w('addKind')}
        value={form.kind}
        options={KINDS.map((kind) => ({ value: kind, label: w(`kind.${kind}`) }))}
        onChange={(kind) => set({ ...form, kind: kind as Kind })}
      />
    </>
  );
};

export const AddForm = ({ added }: { added: (name: string) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState(EMPTY);
  const [settings, setSettings] = useState<Record<string, string>>({});
  const { choice, fields: kindFields } = KIND_FORMS[form.kind];
  // A preset's platform that does not publish some settings: the form says which and asks for them.
  const asked = choice?.key === 'preset' ? (OIDC_PRESET_ASKS[form.choices.preset as OidcPresetName] ?? []) : [];
  const fields = kindFields.map((field) => (asked.includes(field.key) ? { ...field, optional: false } : field));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let name = '';
    const ok = await action.run(async () => {
      const connector = await addSchoolConnector(Number(form.school), {
        code: form.code,
        kind: form.kind,
        name: form.name,
        settings: { ...newSettings(form.kind, settings, form.choices), ...form.switches },
      });
      name = connector.name;
    });
    if (ok) {
      setForm(EMPTY);
      setSettings({});
      added(name);
    }
  };
  const text = (key: 'code' | 'name') => (value: string) => setForm({ ...form, [key]: value });
  return (
    <Card id="connector-add" title={w('add')}>
      <form className="console-form" onSubmit={submit}>
        <SchoolAndKind form={form} set={setForm} />
        <TextField id="connector-code" label={w('addCode')} value={form.code} required onChange={text('code')} />
        <TextField id="connector-name" label={w('addName')} value={form.name} required onChange={text('name')} />
        {choice ? (
          <ChoiceField
            idPrefix="connector"
            choice={choice}
            value={form.choices[choice.key] ?? choice.initial}
            onChange={(value) => setForm({ ...form, choices: { ...form.choices, [choice.key]: value } })}
          />
        ) : null}
        {asked.length > 0 ? (
          <p className="console-lead" data-testid="preset-asks">
            {w('preset.asks', { fields: asked.map((key) => w(`set.${key}` as Word)).join(', ') })}
          </p>
        ) : null}
        <SettingFields
          idPrefix="connector-setting"
          fields={fields}
          editing={false}
          text={settings}
          onChange={setSettings}
        />
        <SwitchBoxes
          idPrefix="connector"
          value={form.switches}
          onChange={(switches) => setForm({ ...form, switches })}
        />
        <FormEnd error={action.error} busy={action.busy} save={w('submit')} />
      </form>
    </Card>
  );
};

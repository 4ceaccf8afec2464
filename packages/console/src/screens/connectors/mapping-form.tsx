/** A connector's attribute mapping edited: which attribute identifies a person, which says teacher or pupil, class and name. */
import { type FormEvent, useState } from 'react';
import { setSchoolConnectorMapping } from '../../api/edu-api.ts';
import { Card } from '../../ui/table.tsx';
import { EditFormEnd, type EditFormProps, TextField, useEditAction } from './fields.tsx';
import { useWords } from './words.ts';

const MAPPING_KEYS = [
  'subject',
  'role_attribute',
  'teacher_values',
  'pupil_values',
  'class_attribute',
  'name_attribute',
] as const;
type MappingKey = (typeof MAPPING_KEYS)[number];
const LISTS = new Set<MappingKey>(['teacher_values', 'pupil_values']);

/** A mapping as the form's text fields: lists joined with commas. */
const mappingText = (mapping: unknown): Record<MappingKey, string> => {
  const record = (typeof mapping === 'object' && mapping !== null ? mapping : {}) as Record<string, unknown>;
  const one = (key: MappingKey) => {
    const value = record[key];
    return Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
  };
  return Object.fromEntries(MAPPING_KEYS.map((key) => [key, one(key)])) as Record<MappingKey, string>;
};

/** The form's text fields as a mapping: lists split at commas (either width), blanks dropped. */
const mappingOf = (form: Record<MappingKey, string>) =>
  Object.fromEntries(
    MAPPING_KEYS.map((key) => [
      key,
      LISTS.has(key)
        ? form[key]
            .split(/[,，]/)
            .map((v) => v.trim())
            .filter((v) => v !== '')
        : form[key].trim(),
    ]),
  );

export const MappingForm = ({ connector, done }: EditFormProps) => {
  const w = useWords();
  const action = useEditAction('mapping-subject');
  const [form, setForm] = useState(() => mappingText(connector.mapping));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(() => setSchoolConnectorMapping(connector.id, mappingOf(form)))) {
      done(w('mappingSaved', { name: connector.name }));
    }
  };
  return (
    <Card id="connector-mapping" title={w('mappingTitle', { name: connector.name })}>
      <form className="console-form" onSubmit={submit}>
        {MAPPING_KEYS.map((key) => (
          <TextField
            key={key}
            id={`mapping-${key}`}
            label={w(`map.${key}`)}
            value={form[key]}
            required={key === 'subject' || key === 'role_attribute'}
            onChange={(value) => setForm({ ...form, [key]: value })}
          />
        ))}
        <EditFormEnd error={action.error} busy={action.busy} save={w('saveMapping')} cancel={() => done(null)} />
      </form>
    </Card>
  );
};

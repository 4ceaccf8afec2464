/** Opening a class in a school the caller teaches at; the new class opens at once. */
import { eduTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { navigate } from '../../router/history.ts';
import { eduCall } from '../../session/edu.ts';
import { Field } from '../../ui/field.tsx';
import { GradeSelect } from './grade-select.tsx';
import { teachPaths } from './teach-paths.ts';

/** The school year a class opened today belongs to: from September, this year and the next. */
export const currentSchoolYear = (today = new Date()) => {
  const start = today.getMonth() >= 8 ? today.getFullYear() : today.getFullYear() - 1;
  return `${start}-${start + 1}`;
};

export const OpenClassForm = ({
  schools,
  grades,
}: {
  schools: { id: number; name: string }[];
  /** The grades a class may have (the server's `class_grades`). */
  grades: readonly number[];
}) => {
  const { t } = useI18n();
  const action = useAction();
  const schoolId = useId();
  const [school, setSchool] = useState(String(schools[0]?.id ?? ''));
  const [name, setName] = useState('');
  // No grade is chosen for the teacher: a class of 8-year-olds must not become one of adults by a slip.
  const [grade, setGrade] = useState('');
  const [year, setYear] = useState(currentSchoolYear);
  const [submitted, setSubmitted] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!name.trim() || !grade || !year.trim()) return void requestAnimationFrame(() => action.focusFirstInvalid());
    void action.run(async () => {
      const opened = await eduCall(eduTable.createClass, {
        params: { id: Number(school) },
        body: { name: name.trim(), grade: Number(grade), school_year: year.trim() },
      });
      navigate(teachPaths.class(opened.id));
    });
  };
  const required = (value: string) => (submitted && !value.trim() ? t('form.required') : null);
  return (
    <section className="subsection" aria-labelledby="open-class-title">
      <h2 id="open-class-title">{t('teach.openClass')}</h2>
      <form onSubmit={submit} noValidate>
        {schools.length > 1 ? (
          <div className="field">
            <label htmlFor={schoolId}>{t('teach.school')}</label>
            <select id={schoolId} value={school} onChange={(e) => setSchool(e.target.value)}>
              {schools.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <Field
          label={t('teach.className')}
          value={name}
          onValue={setName}
          error={required(name)}
          maxLength={64}
          required
        />
        <GradeSelect grades={grades} value={grade} onValue={setGrade} error={required(grade)} />
        <Field
          label={t('teach.schoolYear')}
          value={year}
          onValue={setYear}
          error={required(year)}
          maxLength={32}
          required
        />
        <FormError message={action.error} onRetry={action.retry} />
        <button type="submit" className="button primary" aria-busy={action.busy}>
          {action.busy ? t('form.working') : t('teach.create')}
        </button>
      </form>
    </section>
  );
};

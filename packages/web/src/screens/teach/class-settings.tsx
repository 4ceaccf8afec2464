/**
 * A class's own changes: a co-teacher of the school, its grade corrected (by its head teacher or a
 * school admin: the pupils' age band follows), up a grade for a new school year, archived at term end.
 */
import { type EduClass, eduTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { Field } from '../../ui/field.tsx';
import { classGradeName, GradeSelect } from './grade-select.tsx';

/** "2026-2027" → "2027-2028"; anything else is left for the teacher to type. */
const nextSchoolYear = (year: string) => {
  const match = /^(\d{4})-(\d{4})$/.exec(year);
  return match ? `${Number(match[1]) + 1}-${Number(match[2]) + 1}` : '';
};

/** The grade list, with the class's own grade kept where the list no longer has it (shown, not offered anew). */
const gradeChoices = (grades: readonly number[], current: number) =>
  grades.includes(current) ? grades : [...grades, current].sort((a, b) => a - b);

export const ClassSettings = ({
  found,
  onChanged,
  grades,
  mayChangeGrade,
}: {
  found: EduClass;
  onChanged(): void;
  /** The grades a class may have (the server's `class_grades`). */
  grades: readonly number[];
  /** The caller is the class's head teacher or a school admin. */
  mayChangeGrade: boolean;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const confirm = useConfirm();
  const [coTeacher, setCoTeacher] = useState('');
  const [grade, setGrade] = useState(String(found.grade));
  const [year, setYear] = useState(() => nextSchoolYear(found.school_year));
  const params = { id: found.id };

  const addCoTeacher = (event: FormEvent) => {
    event.preventDefault();
    const userId = Number(coTeacher);
    if (!Number.isSafeInteger(userId) || userId < 1) return action.setError(t('teach.coTeacherInvalid'));
    void action.run(async () => {
      await eduCall(eduTable.addClassTeacher, { params, body: { user_id: userId } });
      setCoTeacher('');
      onChanged();
      return t('teach.coTeacherAdded');
    });
  };
  const changeGrade = async (event: FormEvent) => {
    event.preventDefault();
    if (grade === '' || Number(grade) === found.grade) return;
    const name = classGradeName(t, Number(grade));
    const sure = await confirm.ask({
      title: t('teach.gradeChangeTitle', { grade: name }),
      body: t('teach.gradeChangeBody'),
      confirmLabel: t('teach.gradeChange'),
    });
    if (!sure) return;
    await action.run(async () => {
      const changed = await eduCall(eduTable.updateClass, { params, body: { grade: Number(grade) } });
      onChanged();
      return t('teach.gradeChanged', { grade: classGradeName(t, changed.grade) });
    });
  };
  const promote = (event: FormEvent) => {
    event.preventDefault();
    if (!year.trim()) return action.setError(t('teach.newYearMissing'));
    void action.run(async () => {
      const moved = await eduCall(eduTable.promoteClass, { params, body: { school_year: year.trim() } });
      onChanged();
      return t('teach.promoted', { grade: classGradeName(t, moved.grade), year: moved.school_year });
    });
  };
  const archive = async () => {
    const sure = await confirm.ask({
      title: t('teach.archiveTitle', { name: found.name }),
      body: t('teach.archiveBody'),
      confirmLabel: t('teach.archive'),
    });
    if (!sure) return;
    await action.run(async () => {
      await eduCall(eduTable.archiveClass, { params });
      onChanged();
      return t('teach.archivedDone');
    });
  };

  return (
    <section className="subsection" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('teach.settings')}</h2>
      <form onSubmit={addCoTeacher} noValidate className="inline-form">
        <Field
          label={t('teach.coTeacher')}
          hint={t('teach.coTeacherHint')}
          value={coTeacher}
          onValue={setCoTeacher}
          inputMode="numeric"
        />
        <button type="submit" className="button secondary">
          {t('teach.addCoTeacher')}
        </button>
      </form>
      {found.archived ? null : (
        <>
          {mayChangeGrade ? (
            <form onSubmit={changeGrade} noValidate className="inline-form">
              <GradeSelect grades={gradeChoices(grades, found.grade)} value={grade} onValue={setGrade} />
              <button type="submit" className="button secondary">
                {t('teach.gradeChange')}
              </button>
            </form>
          ) : null}
          <form onSubmit={promote} noValidate className="inline-form">
            <Field label={t('teach.newYear')} value={year} onValue={setYear} maxLength={32} />
            <button type="submit" className="button secondary">
              {t('teach.promote')}
            </button>
          </form>
          <div className="actions">
            <button type="button" className="button danger" onClick={archive}>
              {t('teach.archive')}
            </button>
          </div>
        </>
      )}
      <FormError message={action.error} onRetry={action.retry} />
      <Notice message={action.notice} />
      {confirm.dialog}
    </section>
  );
};

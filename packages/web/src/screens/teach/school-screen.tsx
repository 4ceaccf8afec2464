/** A school admin's view of the school: teachers (approving those who asked), classes, today's quota. */
import { checks, clientCodeName, eduTable, type SchoolOverview } from '@edupass/protocol';
import { useKitTexts } from '@edupass/ui-kit/kit-texts.tsx';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { Field } from '../../ui/field.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { useRuleError } from '../../ui/validation.ts';
import { AccountLayout } from '../account/account-layout.tsx';
import { BackLink } from './back-link.tsx';
import { ClassFacts } from './class-facts.tsx';
import { MergePupils } from './merge-pupils.tsx';
import { isNotFound, TeachNotFound } from './teach-not-found.tsx';
import { teachPaths } from './teach-paths.ts';

type Teacher = SchoolOverview['teachers'][number];

/**
 * The school's choice for pupils' printed cards when a pupil chooses a password of their own: they
 * stop working (the default), or keep working. Saved for the whole school at once.
 */
const CardsSetting = ({ schoolId, keep, onSaved }: { schoolId: number; keep: boolean; onSaved(): void }) => {
  const { t } = useI18n();
  const action = useAction();
  const name = useId();
  const [chosen, setChosen] = useState(keep);
  useEffect(() => setChosen(keep), [keep]);
  const save = () =>
    action.run(async () => {
      await eduCall(eduTable.updateSchool, { params: { id: schoolId }, body: { cards_keep_working: chosen } });
      onSaved();
      return t('teach.cardsSaved');
    });
  return (
    <section className="subsection" aria-labelledby="school-cards-title">
      <h2 id="school-cards-title">{t('teach.cardsTitle')}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <fieldset className="field">
          <legend>{t('teach.cardsIntro')}</legend>
          <div className="radios stacked">
            {[false, true].map((value) => (
              <label key={String(value)}>
                <input type="radio" name={name} checked={chosen === value} onChange={() => setChosen(value)} />
                {t(value ? 'teach.cardsKeep' : 'teach.cardsStop')}
              </label>
            ))}
          </div>
        </fieldset>
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        <button type="submit" className="button secondary" aria-busy={action.busy}>
          {t('teach.cardsSave')}
        </button>
      </form>
    </section>
  );
};

/** A school admin adds a teacher by the phone number of the teacher's own account: approved, this school only. */
const AddTeacher = ({ schoolId, onAdded }: { schoolId: number; onAdded(): void }) => {
  const { t } = useI18n();
  const texts = useKitTexts();
  // Worded for the admin adding someone, not for the person whose number it is.
  const action = useAction((error) => {
    const code = clientCodeName((error as { code?: number }).code ?? -1);
    if (code === 'PHONE_UNREGISTERED') return t('teach.phoneNoAccount');
    if (code === 'FORBIDDEN') return t('teach.cannotTeach');
    return texts.errorText(error);
  });
  const [phone, setPhone] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const ruleError = useRuleError();
  const number = phone.replace(/[\s-]/g, '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (checks.phone_number(number)) return void requestAnimationFrame(() => action.focusFirstInvalid());
    void action.run(async () => {
      await eduCall(eduTable.addSchoolTeacher, { params: { id: schoolId }, body: { phone_number: number } });
      onAdded();
      setPhone('');
      setSubmitted(false);
      return t('teach.teacherAdded', { phone: number });
    });
  };
  return (
    <section className="subsection" aria-labelledby="add-teacher-title">
      <h2 id="add-teacher-title">{t('teach.addTeacher')}</h2>
      <p className="muted">{t('teach.addTeacherIntro')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('teach.teacherPhone')}
          value={phone}
          onValue={setPhone}
          error={submitted ? ruleError('phone_number', number) : null}
          bind={action.field('phone_number')}
          type="tel"
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          required
        />
        <FormError message={action.error} onRetry={action.retry} />
        <Notice message={action.notice} />
        <button type="submit" className="button secondary" aria-busy={action.busy}>
          {action.busy ? t('form.working') : t('teach.addTeacherSubmit')}
        </button>
      </form>
    </section>
  );
};

export const SchoolScreen = ({ schoolId }: { schoolId: number }) => {
  const { t } = useI18n();
  const load = useLoad(() => eduCall(eduTable.schoolOverview, { params: { id: schoolId } }), [schoolId]);
  const loadError = useLoadError(load);
  const action = useAction();
  const school = load.data;
  if (load.status === 'failed' && isNotFound(load.error)) {
    return (
      <AccountLayout title={t('teach.schoolNotFound')}>
        <TeachNotFound />
      </AccountLayout>
    );
  }
  const approve = (teacher: Teacher) =>
    action.run(async () => {
      await eduCall(eduTable.approveTeacher, { params: { id: schoolId, user_id: teacher.user_id } });
      load.reload();
      return t('teach.teacherApproved', { name: teacher.name });
    });
  const refuse = (teacher: Teacher) =>
    action.run(async () => {
      await eduCall(eduTable.refuseTeacher, { params: { id: schoolId, user_id: teacher.user_id } });
      load.reload();
      return t('teach.refused', { name: teacher.name });
    });
  return (
    <AccountLayout title={school ? school.name : t('teach.schoolOverview')}>
      <BackLink href={teachPaths.home} label={t('teach.backToClasses')} />
      <FormError {...loadError} />
      {school ? (
        <>
          <p>{t('teach.quota', { used: school.batches_used_today, max: school.daily_batches })}</p>
          <section className="subsection" aria-labelledby="teachers-title">
            <h2 id="teachers-title">{t('teach.teachers')}</h2>
            <ul className="teach-list">
              {school.teachers.map((teacher) => (
                <li key={`${teacher.user_id}:${teacher.role}`} className="teach-row">
                  <span>{teacher.name}</span>
                  <span className="muted mono">{t('teach.accountId', { id: teacher.user_id })}</span>
                  {teacher.phone ? <span className="muted mono">{teacher.phone}</span> : null}
                  <span className="muted">
                    {t(teacher.role === 'school_admin' ? 'teach.roleAdmin' : 'teach.roleTeacher')}
                    {teacher.status === 'pending' ? ` · ${t('teach.pending')}` : ''}
                  </span>
                  {teacher.status === 'pending' ? (
                    <span className="row-actions">
                      <button type="button" className="button secondary" onClick={() => approve(teacher)}>
                        {t('teach.approve')}
                        <span className="visually-hidden"> {teacher.name}</span>
                      </button>
                      <button type="button" className="button ghost" onClick={() => refuse(teacher)}>
                        {t('teach.refuse')}
                        <span className="visually-hidden"> {teacher.name}</span>
                      </button>
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            <FormError message={action.error} onRetry={action.retry} />
            <Notice message={action.notice} />
          </section>
          <AddTeacher schoolId={schoolId} onAdded={load.reload} />
          <section className="subsection" aria-labelledby="school-classes-title">
            <h2 id="school-classes-title">{t('teach.schoolClasses')}</h2>
            {school.classes.length === 0 ? <p className="muted">{t('teach.noClasses')}</p> : null}
            <ul className="teach-list">
              {school.classes.map((c) => (
                <li key={c.id} className="teach-row">
                  <span>{c.name}</span>
                  <ClassFacts grade={c.grade} year={c.school_year} archived={c.archived} />
                </li>
              ))}
            </ul>
          </section>
          <MergePupils schoolId={schoolId} />
          <CardsSetting schoolId={schoolId} keep={school.cards_keep_working} onSaved={load.reload} />
        </>
      ) : null}
    </AccountLayout>
  );
};

/**
 * A teacher's way in: find the school by a part of its name, ask to teach there, and see the request
 * (waiting, approved, turned down) in "Your schools" above, with the name the school knows them by
 * (optional: pupils and guardians see it where the teacher read their record). The search answers names only.
 */
import { type EduMemberships, eduTable, type SchoolSearch } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { Field } from '../../ui/field.tsx';

type Found = SchoolSearch['schools'][number];

export const FindSchool = ({ mine, onAsked }: { mine: EduMemberships['schools']; onAsked(): void }) => {
  const { t } = useI18n();
  const search = useAction();
  const ask = useAction();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found[] | null>(null);
  const [tooShort, setTooShort] = useState(false);
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    setTooShort([...q.replace(/\s+/g, '')].length < 2);
    if ([...q.replace(/\s+/g, '')].length < 2) return void requestAnimationFrame(() => search.focusFirstInvalid());
    void search.run(async () => {
      setFound((await eduCall(eduTable.searchSchools, { query: { q } })).schools);
    });
  };
  const askAt = (school: Found) =>
    ask.run(async () => {
      const given = name.trim();
      await eduCall(eduTable.requestTeaching, { params: { id: school.id }, body: given ? { name: given } : {} });
      onAsked();
      return t('teach.asked', { school: school.name });
    });
  const stateAt = (school: Found) => {
    const roles = mine.filter((s) => s.id === school.id);
    if (roles.some((r) => r.status === 'approved')) return t('teach.youTeachHere');
    if (roles.some((r) => r.status === 'pending')) return t('teach.pending');
    return null;
  };
  return (
    <section className="subsection" aria-labelledby="find-school-title">
      <h2 id="find-school-title">{t('teach.findSchool')}</h2>
      <p className="muted">{t('teach.findSchoolIntro')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('teach.schoolName')}
          value={query}
          onValue={setQuery}
          error={tooShort ? t('teach.searchTooShort') : null}
          maxLength={64}
          enterKeyHint="search"
          required
        />
        <FormError message={search.error} onRetry={search.retry} />
        <button type="submit" className="button secondary" aria-busy={search.busy}>
          {search.busy ? t('form.working') : t('teach.search')}
        </button>
      </form>
      {found ? (
        <>
          <p className="muted" role="status">
            {found.length === 0 ? t('teach.noSchoolFound') : t('teach.schoolsFound', { count: found.length })}
          </p>
          {found.length > 0 ? (
            <Field
              label={t('teach.yourName')}
              hint={t('teach.yourNameHint')}
              value={name}
              onValue={setName}
              maxLength={32}
              autoComplete="name"
            />
          ) : null}
          <ul className="teach-list" aria-label={t('teach.searchResults')}>
            {found.map((school) => {
              const state = stateAt(school);
              return (
                <li key={school.id} className="teach-row">
                  <strong>{school.name}</strong>
                  {state ? (
                    <span className="muted">{state}</span>
                  ) : (
                    <button type="button" className="button primary" onClick={() => askAt(school)}>
                      {t('teach.askToTeach')}
                      <span className="visually-hidden"> {school.name}</span>
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
      <FormError message={ask.error} onRetry={ask.retry} />
      <Notice message={ask.notice} />
    </section>
  );
};

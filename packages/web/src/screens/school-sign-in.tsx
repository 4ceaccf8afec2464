/**
 * "Sign in with your school": the chooser (the schools offered, searchable by name, the last one chosen
 * first) at `/school`, and the return from the school's sign-in at `/?school=<code>`: signed in (the
 * server's session cookie becomes this client's tokens), or what went wrong with a way to try again.
 */
import { convertCookie } from '@edupass/account';
import { callRoute } from '@edupass/account/custom-calls';
import { schoolSignInTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { rememberedSchool } from '../oauth/remembered-school.ts';
import { SCHOOL_PARAM, schoolFailure, startSchoolSignIn } from '../oauth/school.ts';
import { useLocation } from '../router/history.ts';
import { client } from '../session/account.ts';
import { afterSignIn } from '../session/after-sign-in.ts';
import { backFromSchool } from '../session/return-notes.ts';
import { Field } from '../ui/field.tsx';
import { Link } from '../ui/link.tsx';
import { useLoadError } from '../ui/load-error.ts';
import { Screen } from '../ui/screen.tsx';

type Choice = { code: string; name: string; school_name: string };

/** Matches ignore case and spaces, so "第一 中学" finds "第一中学". */
const folded = (text: string) => text.toLowerCase().replace(/\s+/g, '');

const Chooser = () => {
  const { t } = useI18n();
  // Anyone may list the schools: sent as a route that takes a session only when one is held, so a
  // signed-out visitor's list never waits on obtaining one.
  const list = useLoad(
    () => callRoute(client, { ...schoolSignInTable.schoolChoices, auth: 'optional' }) as Promise<Choice[]>,
  );
  const loadError = useLoadError(list);
  const [search, setSearch] = useState('');
  const last = rememberedSchool();
  const all = list.data ?? [];
  const wanted = folded(search);
  const shown = all
    .filter((c) => !wanted || folded(`${c.school_name}${c.name}`).includes(wanted))
    .sort((a, b) => Number(b.code === last) - Number(a.code === last));
  return (
    <>
      <Field label={t('school.search')} value={search} onValue={setSearch} enterKeyHint="search" autoComplete="off" />
      <FormError {...loadError} />
      {list.status === 'loading' && !list.data ? <p className="muted">{t('app.loading')}</p> : null}
      {list.status === 'done' && shown.length === 0 ? (
        <p role="status">{all.length === 0 ? t('school.none') : t('school.noMatch')}</p>
      ) : null}
      <ul className="school-list">
        {shown.map((choice) => (
          <li key={choice.code}>
            <button type="button" className="button school-choice" onClick={() => startSchoolSignIn(choice.code)}>
              <span>{choice.school_name}</span>
              {choice.name !== choice.school_name ? <span className="muted">{choice.name}</span> : null}
              {choice.code === last ? <span className="muted">{t('school.last')}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
};

/** Back from the school's sign-in: the session cookie is set; this client takes it as its tokens. */
const Finish = () => {
  const { t, errorText } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Back here, the server did not complete the product's sign-in this tab waits on: this client does.
    backFromSchool();
    convertCookie(client)
      .then(() => afterSignIn('school'))
      .catch((caught: unknown) => setError(errorText(caught)));
  }, [errorText]);
  return error ? <FormError message={error} /> : <p role="status">{t('school.working')}</p>;
};

const FAILURES = {
  expired: 'school.expired',
  refused: 'school.refused',
  unavailable: 'school.unavailable',
} as const;

const SchoolSignIn = () => {
  const { t } = useI18n();
  const { query } = useLocation();
  const code = query.get(SCHOOL_PARAM);
  const failure = schoolFailure(query.get('error'));
  return (
    <Screen title={t('school.title')}>
      {code === null ? (
        <Chooser />
      ) : failure ? (
        <>
          <FormError message={t(FAILURES[failure])} />
          <div className="actions">
            <button type="button" className="button primary" onClick={() => startSchoolSignIn(code)}>
              {t('school.tryAgain')}
            </button>
          </div>
        </>
      ) : (
        <Finish />
      )}
      <p className="aside">
        {code === null ? null : (
          <>
            <Link href="/school">{t('school.other')}</Link>
            {' · '}
          </>
        )}
        <Link href="/">{t('school.otherWay')}</Link>
      </p>
    </Screen>
  );
};

export default SchoolSignIn;

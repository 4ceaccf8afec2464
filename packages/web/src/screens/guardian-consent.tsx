/**
 * The page a consent link opens: `/consent#<link>`. The link is read from the fragment (sent to no
 * server, in no Referer), kept in this tab's storage and removed from the address; opened without
 * it, the page asks for the link to be pasted. A guardian signs in
 * with their own phone first (the SMS code proves it), comes back here, reads what the child's account
 * needs and why (every element of the consent text) and agrees or refuses. Every state has a way on.
 */

import { useSession } from '@edupass/account/react';
import { ClientCode, CONSENT_ELEMENTS, type ConsentRequest, guardianTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useEffect, useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { navigate } from '../router/history.ts';
import { eduCall } from '../session/edu.ts';
import { captureReturn } from '../session/return-target.ts';
import { BirthMonthField, birthMonthChosen } from '../ui/birth-month-field.tsx';
import { useConfirm } from '../ui/confirm.tsx';
import { Link } from '../ui/link.tsx';
import { shownNickname } from '../ui/nickname.ts';
import { linkOfPasted } from '../ui/pasted-link.ts';
import { RelationField } from '../ui/relation-field.tsx';
import { Screen } from '../ui/screen.tsx';
import { useTouched } from '../ui/validation.ts';
import { AdultCheckForm } from './adult-check-form.tsx';

const KEY = 'edupass.consent-link';

const keepLink = (link: string) => {
  try {
    sessionStorage.setItem(KEY, link);
  } catch {
    // Storage off: the link lives in this page only.
  }
};

/** The link from the address (then removed from it and from history), else the one kept before a sign-in. */
const takeLink = (): string => {
  const fromHash = decodeURIComponent(window.location.hash.slice(1)).trim();
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  if (fromHash) keepLink(fromHash);
  try {
    return fromHash || (sessionStorage.getItem(KEY) ?? '');
  } catch {
    return fromHash;
  }
};

/**
 * The page opened without its link (typed from memory, or a chat app cut the address at its `#`): the
 * guardian pastes the whole link the child sent, rather than meeting a dead end.
 */
const PasteLink = ({ onLink }: { onLink: (link: string) => void }) => {
  const { t } = useI18n();
  const id = useId();
  const [pasted, setPasted] = useState('');
  return (
    <Screen title={t('guardianConsent.pasteTitle')}>
      <p>{t('guardianConsent.pasteBody')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const link = linkOfPasted(pasted);
          if (!link) return;
          keepLink(link);
          onLink(link);
        }}
      >
        <div className="field">
          <label htmlFor={id}>{t('guardianConsent.pasteLabel')}</label>
          <input
            id={id}
            value={pasted}
            required
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setPasted(event.target.value)}
          />
        </div>
        <button type="submit" className="button primary block">
          {t('guardianConsent.pasteGo')}
        </button>
      </form>
    </Screen>
  );
};
const forgetLink = () => {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage off: nothing kept.
  }
};

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; request: ConsentRequest }
  | { kind: 'gone' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'done'; decision: 'consent' | 'refuse' }
  /** The account has no age: the year and month of birth are asked first (only an adult decides). */
  | { kind: 'age' }
  /** The account is a child's: a grown-up has to do this. */
  | { kind: 'minor' };

/** The link lapsed, was used or names no waiting child (the server's E_2). */
const isGone = (error: unknown) => (error as { serverCode?: unknown } | undefined)?.serverCode === 'E_2';
/** The server asks the caller's year and month of birth first (E_1 with INVALID_BIRTHDAY's number). */
const isAgeNeeded = (error: unknown) => {
  const e = error as { serverCode?: unknown; code?: unknown } | undefined;
  return e?.serverCode === 'E_1' && e.code === ClientCode.INVALID_BIRTHDAY;
};
const MINOR_BANDS = new Set(['under_8', '8_13', '14_15', '16_17']);
/** Whether the signed-in account is a child's (the server refuses a minor's decision). */
const callerIsMinor = async () => MINOR_BANDS.has((await eduCall(guardianTable.ownConsent)).age_band ?? '');

/** The age question: the year and month of birth, given once, before an adult decides. */
const AgeQuestion = ({ onAnswered }: { onAnswered: (adult: boolean) => void }) => {
  const { t } = useI18n();
  const action = useAction();
  const touched = useTouched();
  const [birth, setBirth] = useState('');
  return (
    <Screen title={t('guardianConsent.ageTitle')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          touched.submit();
          if (!birthMonthChosen(birth)) return;
          void action.run(async () => {
            const own = await eduCall(guardianTable.setOwnAge, { body: { birth_year_month: birth } });
            onAnswered(own.age_band === 'adult');
          });
        }}
      >
        <p>{t('guardianConsent.ageBody')}</p>
        <BirthMonthField value={birth} onValue={setBirth} touched={touched} />
        <FormError message={action.error} />
        <p>
          <button type="submit" className="button primary block" aria-busy={action.busy}>
            {t('guardianConsent.ageSave')}
          </button>
        </p>
      </form>
    </Screen>
  );
};

/** The disclosing products' names as the sentence quotes them: 「甲」、「乙」 or "A", "B". */
const appList = (apps: readonly string[], locale: string) =>
  locale === 'en' ? apps.map((app) => `"${app}"`).join(', ') : apps.map((app) => `「${app}」`).join('、');

const GuardianConsent = () => {
  const { t, locale } = useI18n();
  const { status } = useSession();
  const [link, setLink] = useState(takeLink);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [relation, setRelation] = useState('');
  const [round, setRound] = useState(0);
  const action = useAction();
  const confirm = useConfirm();
  const signedIn = status === 'signed-in';

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the retry
  useEffect(() => {
    if (!link || !signedIn) return;
    let live = true;
    eduCall(guardianTable.consentRequest, { body: { link } })
      .then((request) => {
        if (!live) return;
        // A guardian linked already said who they are to the child: chosen for them (they may change it).
        if (request.relation) setRelation((chosen) => chosen || (request.relation as string));
        setState({ kind: 'ready', request });
      })
      .catch(async (error: unknown) => {
        const minor = !isGone(error) && !isAgeNeeded(error) && (await callerIsMinor().catch(() => false));
        if (!live) return;
        if (isAgeNeeded(error)) setState({ kind: 'age' });
        else if (minor) setState({ kind: 'minor' });
        else setState(isGone(error) ? { kind: 'gone' } : { kind: 'failed', error });
      });
    return () => {
      live = false;
    };
  }, [link, signedIn, round]);

  const toAccount = (
    <p>
      <Link className="button primary block" href="/account">
        {t('guardianConsent.toAccount')}
      </Link>
    </p>
  );
  if (!link) return <PasteLink onLink={setLink} />;
  if (state.kind === 'gone') {
    return (
      <Screen title={t('guardianConsent.goneTitle')}>
        <p role="alert">{t('guardianConsent.goneBody')}</p>
        {toAccount}
      </Screen>
    );
  }
  if (!signedIn) {
    const toSignIn = () => {
      captureReturn('/consent', new URLSearchParams(), true);
      navigate('/sign-in');
    };
    return (
      <Screen title={t('guardianConsent.title')}>
        <p>{t('guardianConsent.signInFirst')}</p>
        <p>
          <button type="button" className="button primary block" onClick={toSignIn}>
            {t('guardianConsent.signIn')}
          </button>
        </p>
      </Screen>
    );
  }
  if (state.kind === 'age') {
    return (
      <AgeQuestion
        onAnswered={(adult) => {
          if (!adult) return setState({ kind: 'minor' });
          setState({ kind: 'loading' });
          setRound((n) => n + 1);
        }}
      />
    );
  }
  if (state.kind === 'minor') {
    return (
      <Screen title={t('guardianConsent.minorTitle')}>
        <p role="alert">{t('guardianConsent.minorBody')}</p>
        {toAccount}
      </Screen>
    );
  }
  if (state.kind === 'done') {
    return (
      <Screen title={t(state.decision === 'consent' ? 'guardianConsent.doneTitle' : 'guardianConsent.refusedTitle')}>
        <p role="status">
          {t(state.decision === 'consent' ? 'guardianConsent.doneBody' : 'guardianConsent.refusedBody')}
        </p>
        {toAccount}
      </Screen>
    );
  }
  if (state.kind !== 'ready') {
    return (
      <Screen title={t('guardianConsent.title')}>
        {state.kind === 'loading' ? (
          <p role="status" aria-busy="true">
            {t('app.loading')}
          </p>
        ) : (
          <FormError message={t('guardianConsent.loadFailed')} onRetry={() => setRound((n) => n + 1)} />
        )}
        <p>
          <Link className="button block" href="/account">
            {t('guardianConsent.toAccount')}
          </Link>
        </p>
      </Screen>
    );
  }

  const { request } = state;
  const text = request.text[locale === 'en' ? 'en' : 'zh-CN'];
  const decide = (decision: 'consent' | 'refuse') =>
    action.run(async () => {
      if (!relation) throw new Error(t('guardianConsent.relationNeeded'));
      if (
        decision === 'refuse' &&
        !(await confirm.ask({
          title: t('guardianConsent.refuseAskTitle'),
          body: t('guardianConsent.refuseAskBody', { name: shownNickname(request.child.nickname, t) }),
          confirmLabel: t('guardianConsent.refuse'),
        }))
      ) {
        return;
      }
      try {
        await eduCall(guardianTable.decideConsent, { body: { link, decision, relation } });
      } catch (error) {
        if (!isAgeNeeded(error)) throw error;
        setState({ kind: 'age' });
        return;
      }
      forgetLink();
      setState({ kind: 'done', decision });
    });
  return (
    <Screen title={t('guardianConsent.title')}>
      <p>{t('guardianConsent.intro', { name: shownNickname(request.child.nickname, t) })}</p>
      <dl className="consent-text">
        {CONSENT_ELEMENTS.map((element) => (
          <div key={element}>
            <dt>{t(`guardianConsent.element.${element}`)}</dt>
            <dd>{text[element]}</dd>
          </div>
        ))}
      </dl>
      <p className="hint">{t('guardianConsent.version', { n: request.text.version })}</p>
      {request.disclosing_apps.length > 0 ? (
        <p role="note" className="consent-disclosure">
          {t('guardianConsent.disclosure', { apps: appList(request.disclosing_apps, locale) })}
        </p>
      ) : null}
      {request.adult_check === 'needed' ? (
        <AdultCheckForm onPassed={() => setState({ kind: 'ready', request: { ...request, adult_check: 'passed' } })} />
      ) : null}
      {request.adult_check === 'passed' ? (
        <p role="status" className="hint">
          {t('adultCheck.passed')}
        </p>
      ) : null}
      <RelationField value={relation} onChange={setRelation} />
      <FormError message={action.error} />
      <p>
        <button
          type="button"
          className="button primary block"
          aria-busy={action.busy}
          onClick={() => void decide('consent')}
        >
          {t('guardianConsent.agree')}
        </button>
      </p>
      <p>
        <button type="button" className="button block" aria-busy={action.busy} onClick={() => void decide('refuse')}>
          {t('guardianConsent.refuse')}
        </button>
      </p>
      {confirm.dialog}
    </Screen>
  );
};

export default GuardianConsent;

/**
 * The page a consent link opens: `/consent#<link>`. The link is read from the fragment (sent to no
 * server, in no Referer), kept in this tab's storage and removed from the address. A guardian signs in
 * with their own phone first (the SMS code proves it), comes back here, reads what the child's account
 * needs and why (every element of the consent text) and agrees or refuses. Every state has a way on.
 */

import { useSession } from '@edupass/account/react';
import { CONSENT_ELEMENTS, type ConsentRequest, guardianTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { navigate } from '../router/history.ts';
import { eduCall } from '../session/edu.ts';
import { captureReturn } from '../session/return-target.ts';
import { useConfirm } from '../ui/confirm.tsx';
import { Link } from '../ui/link.tsx';
import { shownNickname } from '../ui/nickname.ts';
import { RelationField } from '../ui/relation-field.tsx';
import { Screen } from '../ui/screen.tsx';
import { AdultCheckForm } from './adult-check-form.tsx';

const KEY = 'edupass.consent-link';

/** The link from the address (then removed from it and from history), else the one kept before a sign-in. */
const takeLink = (): string => {
  const fromHash = decodeURIComponent(window.location.hash.slice(1)).trim();
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  try {
    if (fromHash) sessionStorage.setItem(KEY, fromHash);
    return fromHash || (sessionStorage.getItem(KEY) ?? '');
  } catch {
    return fromHash;
  }
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
  | { kind: 'done'; decision: 'consent' | 'refuse' };

/** The link lapsed, was used or names no waiting child (the server's E_2). */
const isGone = (error: unknown) => (error as { serverCode?: unknown } | undefined)?.serverCode === 'E_2';

const GuardianConsent = () => {
  const { t, locale } = useI18n();
  const { status } = useSession();
  const [link] = useState(takeLink);
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
      .then((request) => live && setState({ kind: 'ready', request }))
      .catch((error: unknown) => {
        if (live) setState(isGone(error) ? { kind: 'gone' } : { kind: 'failed', error });
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
  if (!link || state.kind === 'gone') {
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
      await eduCall(guardianTable.decideConsent, { body: { link, decision, relation } });
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

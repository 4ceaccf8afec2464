/**
 * The page a login card's QR code opens: `/badge#<badge>`. The badge is read from the fragment (which
 * browsers send to no server, in no Referer) and at once removed from the address and history, then
 * exchanged for a session; the sign-in continues as any other (agreements, the return to an
 * application, else the account). A first-party product waiting on the sign-in (the return read on the
 * sign-in screen) is named in the exchange, which completes it where nothing more is asked of the
 * pupil: the browser goes straight back to the product, without the agreements' and the completion's
 * three calls (after-sign-in.ts `signInForProduct`). A card that no longer works says so, with the
 * password sign-in.
 */
import { loginByBadge } from '@edupass/account/badge';
import { ClientCode } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.ts';
import { client } from '../session/account.ts';
import { afterSignIn, signInForProduct } from '../session/after-sign-in.ts';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';

type State = { kind: 'working' } | { kind: 'no-card' } | { kind: 'revoked' } | { kind: 'failed'; error: unknown };

/** The badge in the address, and the address without it (so a reload or the back button never resends it). */
const takeBadge = (): string => {
  const badge = decodeURIComponent(window.location.hash.slice(1)).trim();
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  return badge;
};

const isRefused = (error: unknown) =>
  (error as { code?: unknown } | undefined)?.code === ClientCode.USER_NOT_EXIST_OR_WRONG_PASSWORD;

const BadgeSignIn = () => {
  const { t, errorText } = useI18n();
  const [badge] = useState(takeBadge);
  const [round, setRound] = useState(0);
  const [state, setState] = useState<State>(badge ? { kind: 'working' } : { kind: 'no-card' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is the retry
  useEffect(() => {
    if (!badge) return;
    let live = true;
    setState({ kind: 'working' });
    // A first-party product waiting on this sign-in is completed with it: straight back to the product.
    signInForProduct((product) => loginByBadge(client, { badge, ...product }), 'badge')
      .then((stayed) => (stayed ? afterSignIn('badge') : undefined))
      .catch((error: unknown) => {
        if (live) setState(isRefused(error) ? { kind: 'revoked' } : { kind: 'failed', error });
      });
    return () => {
      live = false;
    };
  }, [badge, round]);

  const toSignIn = (
    <p>
      <Link className="button primary block" href="/sign-in?for=pupil">
        {t('badge.toSignIn')}
      </Link>
    </p>
  );
  if (state.kind === 'revoked') {
    return (
      <Screen title={t('badge.revokedTitle')}>
        <p role="alert">{t('badge.revokedBody')}</p>
        {toSignIn}
      </Screen>
    );
  }
  if (state.kind === 'no-card') {
    return (
      <Screen title={t('badge.title')}>
        <p>{t('badge.missing')}</p>
        {toSignIn}
      </Screen>
    );
  }
  return (
    <Screen title={t('badge.title')}>
      {state.kind === 'working' ? (
        <p role="status" aria-busy="true">
          {t('badge.working')}
        </p>
      ) : (
        <>
          <FormError message={errorText(state.error)} onRetry={() => setRound(round + 1)} />
          {toSignIn}
        </>
      )}
    </Screen>
  );
};

export default BadgeSignIn;

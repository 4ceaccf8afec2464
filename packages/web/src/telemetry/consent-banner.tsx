/**
 * Asks once whether usage and error reports may be sent; the answer is remembered. A child under 14 is
 * never asked (reports stay off: consent.ts), so nothing is asked before it is known who signed in,
 * nor on the page a login card's QR code opens and the pupil's sign-in it leads to.
 */
import { useSession } from '@edupass/account/react';
import { useI18n } from '../i18n/i18n.ts';
import { useLocation } from '../router/history.ts';
import { useGate } from '../session/gate.ts';
import { setConsent, useConsent } from './consent.ts';

export const ConsentBanner = () => {
  const { t } = useI18n();
  const consent = useConsent();
  const { path, query } = useLocation();
  // A card's page, and the sign-in it leads to, are a pupil's: nothing is asked before it is known who.
  const pupil = path === '/badge' || query.get('for') === 'pupil';
  const { status } = useSession();
  const gate = useGate();
  if (consent !== 'unset' || pupil || (status === 'signed-in' && !gate.ready)) return null;
  return (
    <section className="consent" aria-labelledby="consent-title">
      <div className="consent-text">
        <h2 id="consent-title">{t('consent.title')}</h2>
        <p>{t('consent.body')}</p>
      </div>
      <div className="actions">
        <button type="button" className="button primary" onClick={() => setConsent('granted')}>
          {t('consent.allow')}
        </button>
        <button type="button" className="button secondary" onClick={() => setConsent('denied')}>
          {t('consent.deny')}
        </button>
      </div>
    </section>
  );
};

/** Asks once whether usage and error reports may be sent; the answer is remembered. */
import { useI18n } from '../i18n/i18n.ts';
import { setConsent, useConsent } from './consent.ts';

export const ConsentBanner = () => {
  const { t } = useI18n();
  const consent = useConsent();
  if (consent !== 'unset') return null;
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

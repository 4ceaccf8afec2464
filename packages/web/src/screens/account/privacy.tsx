/** Account centre: what identifies the user, the agreements in effect, the usage-data choice, a copy of my data and who read my record. */
import { getPrivacy } from '@edupass/account';
import { RETENTION_PAGE_PATH } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { useInfiniteScroll } from '@edupass/ui-kit/use-infinite-scroll.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { client } from '../../session/account.ts';
import { setConsent, useConsent } from '../../telemetry/consent.ts';
import { AgreementItem, useCurrentAgreements } from '../../ui/agreements-check.tsx';
import { Link } from '../../ui/link.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from './account-layout.tsx';
import { ExportSection } from './export-section.tsx';
import { OwnRecordReads } from './record-reads.tsx';

const PAGE = 20;

const Privacy = () => {
  const { t } = useI18n();
  const privacy = useLoad(() => getPrivacy(client));
  const privacyError = useLoadError(privacy);
  const { agreements, loadError: agreementsError } = useCurrentAgreements();
  const consent = useConsent();
  const [shown, setShown] = useState(PAGE);
  const sentinel = useInfiniteScroll<HTMLLIElement>({
    hasMore: shown < agreements.length,
    loadMore: () => setShown((n) => n + PAGE),
  });
  const value = (text: string | undefined) => (text ? text : <span className="muted">{t('privacy.notSet')}</span>);
  const data = privacy.data;
  return (
    <AccountLayout title={t('privacy.title')}>
      <p>{t('privacy.intro')}</p>
      <p>
        <Link className="line-link" href={RETENTION_PAGE_PATH}>
          {t('agree.retention')}
        </Link>
      </p>
      <FormError {...privacyError} />
      <dl className="facts">
        <dt>{t('privacy.username')}</dt>
        <dd>{value(data?.username)}</dd>
        <dt>{t('privacy.email')}</dt>
        <dd>{value(data?.email)}</dd>
        <dt>{t('privacy.phone')}</dt>
        <dd>{value(data?.phone_number)}</dd>
        <dt>{t('privacy.password')}</dt>
        <dd>{data ? (data.has_password ? t('privacy.passwordSet') : t('privacy.passwordUnset')) : ''}</dd>
      </dl>
      <h2>{t('privacy.agreements')}</h2>
      <FormError {...agreementsError} />
      <ul className="agreement-list">
        {agreements.slice(0, shown).map((agreement) => (
          <AgreementItem key={agreement.id} agreement={agreement} />
        ))}
        <li ref={sentinel} aria-hidden="true" className="sentinel" />
      </ul>
      <h2>{t('privacy.data')}</h2>
      {consent === 'child' ? (
        // Under 14: off, and nothing to choose (telemetry/consent.ts).
        <p>{t('privacy.dataChild')}</p>
      ) : (
        <>
          <p>{consent === 'granted' ? t('privacy.dataGranted') : t('privacy.dataDenied')}</p>
          <button type="button" className="button secondary" onClick={() => setConsent('unset')}>
            {t('privacy.dataChange')}
          </button>
        </>
      )}
      <ExportSection />
      <OwnRecordReads />
    </AccountLayout>
  );
};

export default Privacy;

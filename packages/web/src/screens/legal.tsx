/**
 * An agreement on its own page: /legal/<code>?version=N (the version in effect without one); and the
 * privacy notice's retention statement at /privacy/retention (retention.tsx), in the same chunk.
 */
import { RETENTION_PAGE_PATH } from '@edupass/protocol';
import { useI18n } from '../i18n/i18n.ts';
import { AgreementTextView } from '../ui/agreement-text.tsx';
import { Screen } from '../ui/screen.tsx';
import { RetentionStatementScreen } from './retention.tsx';

const Legal = () => {
  const { t } = useI18n();
  if (window.location.pathname.replace(/\/+$/, '') === RETENTION_PAGE_PATH) return <RetentionStatementScreen />;
  const code = decodeURIComponent(window.location.pathname.replace(/^\/legal\//, '').replace(/\/+$/, ''));
  const version = new URLSearchParams(window.location.search).get('version');
  return (
    <Screen title={t('agree.pageTitle')} wide>
      <AgreementTextView key={`${code}@${version}`} code={code} version={version} />
    </Screen>
  );
};

export default Legal;

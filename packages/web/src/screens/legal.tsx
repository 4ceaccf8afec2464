/** An agreement on its own page: /legal/<code>?version=N (the version in effect without one). */
import { useI18n } from '../i18n/i18n.ts';
import { AgreementTextView } from '../ui/agreement-text.tsx';
import { Screen } from '../ui/screen.tsx';

const Legal = () => {
  const { t } = useI18n();
  const code = decodeURIComponent(window.location.pathname.replace(/^\/legal\//, '').replace(/\/+$/, ''));
  const version = new URLSearchParams(window.location.search).get('version');
  return (
    <Screen title={t('agree.pageTitle')} wide>
      <AgreementTextView key={`${code}@${version}`} code={code} version={version} />
    </Screen>
  );
};

export default Legal;

import { useI18n } from '../i18n/i18n.ts';
import { Link } from '../ui/link.tsx';
import { Screen } from '../ui/screen.tsx';

const NotFound = () => {
  const { t } = useI18n();
  return (
    <Screen title={t('notFound.title')}>
      <p>
        <Link href="/">{t('notFound.back')}</Link>
      </p>
    </Screen>
  );
};

export default NotFound;

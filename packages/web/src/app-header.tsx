/** The top bar: the brand and the language switch. */
import { type Locale, useI18n } from './i18n/i18n.ts';
import { Link } from './ui/link.tsx';

const OTHER: Record<Locale, { locale: Locale; label: string }> = {
  'zh-CN': { locale: 'en', label: 'English' },
  en: { locale: 'zh-CN', label: '中文' },
};

export const AppHeader = () => {
  const { t, locale, setLocale } = useI18n();
  const other = OTHER[locale];
  return (
    <header className="top">
      <Link href="/" className="brand">
        {t('app.brand')}
      </Link>
      <button
        type="button"
        className="button ghost lang"
        lang={other.locale}
        aria-label={`${t('lang.label')}: ${other.label}`}
        onClick={() => void setLocale(other.locale)}
      >
        {other.label}
      </button>
    </header>
  );
};

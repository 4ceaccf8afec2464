/** The top bar: the site's logo and name (src/site.ts), and the language switch. */
import { type Locale, useI18n } from './i18n/i18n.ts';
import { site } from './site.ts';
import { Link } from './ui/link.tsx';

const OTHER: Record<Locale, { locale: Locale; label: string }> = {
  'zh-CN': { locale: 'en', label: 'English' },
  en: { locale: 'zh-CN', label: '中文' },
};

/** The product's own logo: a pass (a card with a tick), drawn inline so it costs no request. */
const ProductLogo = () => (
  <svg className="logo" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
    <rect x="2" y="5" width="28" height="22" rx="5" fill="var(--primary)" />
    <path d="M10 16.5l4 4 8-9" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export const AppHeader = () => {
  const { t, locale, setLocale } = useI18n();
  const other = OTHER[locale];
  return (
    <header className="top">
      <Link href="/" className="brand">
        {site.logoUrl ? (
          // The name beside it says what the logo would: the image is decoration (alt="").
          <img className="logo" src={site.logoUrl} alt="" height="32" />
        ) : (
          <ProductLogo />
        )}
        <span>{site.name}</span>
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

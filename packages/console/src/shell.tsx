/** The console's frame: skip link, header with sections, language and sign-out, and the screen. */
import type { ReactNode } from 'react';
import { signOutOperator } from './api/session.ts';
import { CONSOLE_LOCALES, type ConsoleLocale, setConsoleLocale, useConsoleText } from './i18n/i18n.ts';
import { type ConsoleRoute, hrefOf, type Section, sectionOf } from './router.ts';

const LOCALE_NAMES: Record<ConsoleLocale, string> = { 'zh-CN': '中文', en: 'English' };

export const LanguageSelect = () => {
  const { t, locale } = useConsoleText();
  return (
    <label className="console-language">
      <span>{t('language')}</span>
      <select value={locale} onChange={(e) => setConsoleLocale(e.target.value as ConsoleLocale)}>
        {CONSOLE_LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
};

export interface ShellProps {
  /** The current screen; no section links without one (signed out, or not an operator). */
  route: ConsoleRoute | undefined;
  /** The sections the operator's duties open (router.ts `sectionsFor`). */
  sections?: readonly Section[];
  signedIn: boolean;
  children: ReactNode;
}

export const Shell = ({ route, sections = [], signedIn, children }: ShellProps) => {
  const { t } = useConsoleText();
  const current = route ? sectionOf(route) : undefined;
  return (
    <>
      <button
        type="button"
        className="console-skip"
        // Not a #fragment link: the hash holds the console's route.
        onClick={() => document.getElementById('console-main')?.focus()}
      >
        {t('skip')}
      </button>
      <header className="console-header">
        <span className="console-brand">{t('brand')}</span>
        {route ? (
          <nav aria-label={t('nav.label')}>
            <ul>
              {sections.map((section) => (
                <li key={section}>
                  <a
                    href={hrefOf(section === 'users' ? { name: 'users', q: '' } : { name: section })}
                    aria-current={current === section ? 'page' : undefined}
                  >
                    {t(`nav.${section}`)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="console-header-end">
          <LanguageSelect />
          {signedIn ? (
            <button
              type="button"
              className="console-button console-button-quiet"
              onClick={() => void signOutOperator()}
            >
              {t('signOut')}
            </button>
          ) : null}
        </div>
      </header>
      {children}
    </>
  );
};

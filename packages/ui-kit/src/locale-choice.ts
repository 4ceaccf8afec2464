/**
 * A language choice remembered per browser (localStorage), for the web client and the console alike,
 * and the browser's own preference when nothing is remembered.
 */

/** The remembered language under `key`, or `fallback` when there is none (or storage is blocked). */
export const rememberedLocale = <L extends string>(key: string, locales: readonly L[], fallback: L): L => {
  try {
    const saved = window.localStorage.getItem(key);
    if (locales.includes(saved as L)) return saved as L;
  } catch {
    // Storage blocked: the fallback.
  }
  return fallback;
};

/** Remembers `locale` under `key`; switching goes on even when it cannot be remembered. */
export const rememberLocale = (key: string, locale: string): void => {
  try {
    window.localStorage.setItem(key, locale);
  } catch {
    // Switched, not remembered.
  }
};

/**
 * The first of the browser's languages (`navigator.languages`, what it sends as Accept-Language) that
 * one of `locales` serves, matched by primary language (`en-GB` is `en`, `zh-TW` is `zh-CN`), else
 * `fallback`.
 */
export const browserLocale = <L extends string>(
  locales: readonly L[],
  fallback: L,
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): L => {
  const primary = (tag: string) => tag.toLowerCase().split('-')[0];
  for (const language of languages) {
    const served = locales.find((locale) => primary(locale) === primary(language));
    if (served) return served;
  }
  return fallback;
};

/** A language choice remembered per browser (localStorage), for the web client and the console alike. */

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

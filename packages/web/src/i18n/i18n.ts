/**
 * Languages: Chinese and English, chosen by the visitor and remembered; until then the browser's
 * preferred language, else Chinese. Each language's text is two chunks: the first screen's (with the
 * catalogue's errors), loaded before the app renders, and the other screens' (`loadMoreText`), loaded
 * on the first interaction or with any other screen. The page keeps the old text until the new one
 * arrives. `{site}` in any text is the site's name.
 */

import { LOCALE_COOKIE } from '@edupass/protocol';
import { describeError, fill, type Params } from '@edupass/ui-kit/error-text.ts';
import { browserLocale, rememberedLocale, rememberLocale } from '@edupass/ui-kit/locale-choice.ts';
import { createStore } from '@edupass/ui-kit/store.ts';
import { useSyncExternalStore } from 'react';
import { retryingLoader } from '../router/chunks.ts';
import { site } from '../site.ts';
import type { LocaleText, MoreLocaleText, TextKey } from './locales/en.ts';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const STORAGE_KEY = 'edupass.locale';

/** Each language's two chunks; one that failed is fetched again on the next try (router/chunks.ts). */
const loaders: Record<
  Locale,
  { first(): Promise<{ default: LocaleText }>; more(): Promise<{ default: MoreLocaleText }> }
> = {
  'zh-CN': {
    first: retryingLoader(() => import('./locales/zh-CN.ts')),
    more: retryingLoader(() => import('./locales/zh-CN-more.ts')),
  },
  en: {
    first: retryingLoader(() => import('./locales/en.ts')),
    more: retryingLoader(() => import('./locales/en-more.ts')),
  },
};

interface State {
  locale: Locale;
  text: LocaleText | undefined;
  more: MoreLocaleText | undefined;
}

const store = createStore<State>(() => ({ locale: 'zh-CN', text: undefined, more: undefined }));

/** The language being switched to (the store has it once its text arrived). */
let target: Locale = 'zh-CN';
/** Whether the other screens' text is wanted (then every language switched to loads it too). */
let moreWanted = false;
const moreText: Partial<Record<Locale, MoreLocaleText>> = {};

/** Loads the other screens' text of the current language; resolves once the store has it. */
export const loadMoreText = async (): Promise<void> => {
  moreWanted = true;
  const locale = target;
  if (!moreText[locale]) moreText[locale] = (await loaders[locale].more()).default;
  const state = store.get();
  if (state.locale === locale && state.more !== moreText[locale]) store.set({ ...state, more: moreText[locale] });
};

/**
 * A screen chunk's loader that resolves once the other screens' text is there too: a screen is never
 * shown without its words. The text is fetched once more at once when it fails (the first try is often
 * the one started in the background on the first interaction); either failing then fails the screen,
 * and the next call (the route's retry) fetches again whichever failed.
 */
export const withMoreText = <T>(load: () => Promise<T>) => {
  const screen = retryingLoader(load);
  return (): Promise<T> =>
    Promise.all([screen(), loadMoreText().catch(() => loadMoreText())]).then(([loaded]) => loaded);
};

/** Loads and switches to `locale`. */
const switchTo = async (locale: Locale): Promise<void> => {
  target = locale;
  const [{ default: text }] = await Promise.all([loaders[locale].first(), moreWanted ? loadMoreText() : undefined]);
  document.documentElement.lang = locale;
  document.title = fill(text.text['app.title'], { site: site.name });
  store.set({ locale, text, more: moreText[locale] });
};

/**
 * The choice as a cookie too, for the pages the server renders itself (the sign-out page an
 * application opens, server oidc/page-locale.ts), which cannot read this page's storage.
 */
const tellServer = (locale: Locale) => {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the WebViews (WeChat, QQ) and older Safari this site serves.
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; SameSite=Lax`;
};

/** The visitor's choice: switched to and remembered. */
export const setLocale = async (locale: Locale): Promise<void> => {
  await switchTo(locale);
  rememberLocale(STORAGE_KEY, locale);
  tellServer(locale);
};

/** The remembered language, else the browser's, else Chinese. */
export const initialLocale = (): Locale => rememberedLocale(STORAGE_KEY, LOCALES, browserLocale(LOCALES, 'zh-CN'));

/** Loads the initial language (not remembered: a browser set to another language later follows it). */
export const loadInitialLocale = (): Promise<void> => switchTo(initialLocale());

export interface I18n {
  locale: Locale;
  t(key: TextKey, params?: Params): string;
  /** A human sentence for any error: catalogue errors by name, anything else with what it says. */
  errorText(error: unknown): string;
  setLocale(locale: Locale): Promise<void>;
}

export const translator = (current: State): I18n => {
  const { text, more } = current;
  const all: Partial<Record<TextKey, string>> = { ...more, ...text?.text };
  const t = (key: TextKey, params?: Params) => {
    const words = all[key];
    if (words !== undefined) return fill(words, { site: site.name, ...params });
    // Never a raw key on screen: the other screens' text is asked for, and the page re-renders with it.
    if (!more) void loadMoreText().catch(() => undefined);
    return '';
  };
  return {
    locale: current.locale,
    t,
    errorText: (error) =>
      text
        ? describeError(
            {
              errors: text.errors,
              unknownCode: text.text['error.unknownCode'],
              unexpected: text.text['error.unexpected'],
            },
            error,
          )
        : String(error),
    setLocale,
  };
};

let cached: { state: State; i18n: I18n } | undefined;
const snapshot = (): I18n => {
  const state = store.get();
  if (cached?.state !== state) cached = { state, i18n: translator(state) };
  return cached.i18n;
};

export const useI18n = (): I18n => useSyncExternalStore(store.subscribe, snapshot, snapshot);

/** For code outside components (telemetry, the document title). */
export const currentI18n = (): I18n => snapshot();

/**
 * Languages: Chinese and English, chosen by the visitor and remembered; until then the browser's
 * preferred language, else Chinese. Each language's text is two chunks: the first screen's (with the
 * catalogue's errors), loaded before the app renders, and the other screens' (`loadMoreText`), loaded
 * on the first interaction or with any other screen. The page keeps the old text until the new one
 * arrives. `{site}` in any text is the site's name.
 */

import { describeError, fill, type Params } from '@edupass/ui-kit/error-text.ts';
import { browserLocale, rememberedLocale, rememberLocale } from '@edupass/ui-kit/locale-choice.ts';
import { createStore } from '@edupass/ui-kit/store.ts';
import { useSyncExternalStore } from 'react';
import { site } from '../site.ts';
import type { LocaleText, MoreLocaleText, TextKey } from './locales/en.ts';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const STORAGE_KEY = 'edupass.locale';

const loaders: Record<
  Locale,
  { first(): Promise<{ default: LocaleText }>; more(): Promise<{ default: MoreLocaleText }> }
> = {
  'zh-CN': { first: () => import('./locales/zh-CN.ts'), more: () => import('./locales/zh-CN-more.ts') },
  en: { first: () => import('./locales/en.ts'), more: () => import('./locales/en-more.ts') },
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
 * A chunk's loader that resolves once the other screens' text is there too. Only the chunk's own
 * failure fails it (the route's retry imports the URL that failed, router/chunks.ts).
 */
export const withMoreText =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), loadMoreText().catch(() => undefined)]).then(([loaded]) => loaded);

/** Loads and switches to `locale`. */
const switchTo = async (locale: Locale): Promise<void> => {
  target = locale;
  const [{ default: text }] = await Promise.all([loaders[locale].first(), moreWanted ? loadMoreText() : undefined]);
  document.documentElement.lang = locale;
  document.title = fill(text.text['app.title'], { site: site.name });
  store.set({ locale, text, more: moreText[locale] });
};

/** The visitor's choice: switched to and remembered. */
export const setLocale = async (locale: Locale): Promise<void> => {
  await switchTo(locale);
  rememberLocale(STORAGE_KEY, locale);
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
  const t = (key: TextKey, params?: Params) => fill(all[key] ?? key, { site: site.name, ...params });
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

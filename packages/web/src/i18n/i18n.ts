/**
 * Languages: Chinese (default) and English, chosen by the visitor and remembered. Each language's
 * text is its own chunk, loaded when chosen; the page keeps the old text until the new one arrives.
 */
import { useSyncExternalStore } from 'react';
import { createStore } from '../ui/store.ts';
import { describeError, fill, type Params } from './error-text.ts';
import { rememberedLocale, rememberLocale } from './locale-choice.ts';
import type { LocaleText, TextKey } from './locales/en.ts';

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const STORAGE_KEY = 'edupass.locale';

const loaders: Record<Locale, () => Promise<{ default: LocaleText }>> = {
  'zh-CN': () => import('./locales/zh-CN.ts'),
  en: () => import('./locales/en.ts'),
};

interface State {
  locale: Locale;
  text: LocaleText | undefined;
}

const store = createStore<State>(() => ({ locale: 'zh-CN', text: undefined }));

/** Loads and switches to `locale`, remembering the choice. */
export const setLocale = async (locale: Locale): Promise<void> => {
  const { default: text } = await loaders[locale]();
  rememberLocale(STORAGE_KEY, locale);
  document.documentElement.lang = locale;
  document.title = text.text['app.title'];
  store.set({ locale, text });
};

/** Loads the remembered (or default) language; the app renders once it is there. */
export const loadInitialLocale = (): Promise<void> => setLocale(rememberedLocale(STORAGE_KEY, LOCALES, 'zh-CN'));

export interface I18n {
  locale: Locale;
  t(key: TextKey, params?: Params): string;
  /** A human sentence for any error: catalogue errors by name, anything else with what it says. */
  errorText(error: unknown): string;
  setLocale(locale: Locale): Promise<void>;
}

export const translator = (current: State): I18n => {
  const text = current.text;
  const t = (key: TextKey, params?: Params) => fill(text?.text[key] ?? key, params);
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

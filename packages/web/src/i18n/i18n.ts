/**
 * Languages: Chinese (default) and English, chosen by the visitor and remembered. Each language's
 * text is its own chunk, loaded when chosen; the page keeps the old text until the new one arrives.
 */
import { clientCodeName } from '@edupass/protocol';
import { useSyncExternalStore } from 'react';
import { createStore } from '../ui/store.ts';
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

const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

const remembered = (): Locale => {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    if (isLocale(saved)) return saved;
  } catch {
    // Storage blocked: fall through to the default.
  }
  return 'zh-CN';
};

/** Loads and switches to `locale`, remembering the choice. */
export const setLocale = async (locale: Locale): Promise<void> => {
  const { default: text } = await loaders[locale]();
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Not remembered, still switched.
  }
  document.documentElement.lang = locale;
  document.title = text.text['app.title'];
  store.set({ locale, text });
};

/** Loads the remembered (or default) language; the app renders once it is there. */
export const loadInitialLocale = (): Promise<void> => setLocale(remembered());

type Params = Record<string, string | number>;

const fill = (template: string, params?: Params) =>
  params ? template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole)) : template;

export interface I18n {
  locale: Locale;
  t(key: TextKey, params?: Params): string;
  /** A human sentence for any error: catalogue errors by name, anything else with what it says. */
  errorText(error: unknown): string;
  setLocale(locale: Locale): Promise<void>;
}

const isCodedError = (value: unknown): value is { code: number; message: string; serverCode?: string } =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';

export const translator = (current: State): I18n => {
  const text = current.text;
  const t = (key: TextKey, params?: Params) => fill(text?.text[key] ?? key, params);
  return {
    locale: current.locale,
    t,
    errorText(error) {
      if (!text) return String(error);
      if (error instanceof Error && error.name === 'ChunkLoadError') return error.message;
      if (isCodedError(error)) {
        // GCAP_1 shares INVALID_CAPTCHA's number, but it is the human check that failed, not the SMS code.
        if (error.serverCode === 'GCAP_1') return text.errors.CAPTCHA_REJECTED;
        const name = clientCodeName(error.code);
        if (name) return text.errors[name];
        return t('error.unknownCode', { code: error.serverCode ?? error.code, message: error.message });
      }
      return t('error.unexpected');
    },
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

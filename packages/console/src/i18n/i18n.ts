/**
 * The console's languages: Chinese and English, remembered per browser once chosen; until then the
 * browser's own (navigator.languages, what it sends as Accept-Language), Chinese when it asks for
 * neither. Both are small and bundled; switching is synchronous.
 */
import { describeError, type ErrorTexts, fill, type Params } from '@edupass/ui-kit/error-text.ts';
import { errorsEn } from '@edupass/ui-kit/errors/en.ts';
import { errorsZhCN } from '@edupass/ui-kit/errors/zh-CN.ts';
import { browserLocale, rememberedLocale, rememberLocale } from '@edupass/ui-kit/locale-choice.ts';
import { createStore, useStore } from '@edupass/ui-kit/store.ts';
import { type ConsoleKey, type ConsoleText, en } from './en.ts';
import { zhDetail } from './server-details.ts';
import { zhCN } from './zh-CN.ts';

export const CONSOLE_LOCALES = ['zh-CN', 'en'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

const TEXTS: Record<ConsoleLocale, ConsoleText> = { 'zh-CN': zhCN, en };
/** The catalogue's errors in each language: the web client's translations. */
const ERRORS: Record<ConsoleLocale, ErrorTexts['errors']> = { 'zh-CN': errorsZhCN, en: errorsEn };
const STORAGE_KEY = 'edupass.console.locale';

const locale = createStore<ConsoleLocale>(() => 'zh-CN');

const apply = (next: ConsoleLocale) => {
  document.documentElement.lang = next;
  document.title = TEXTS[next].title;
  locale.set(next);
};

export const initConsoleLocale = () =>
  apply(rememberedLocale(STORAGE_KEY, CONSOLE_LOCALES, browserLocale(CONSOLE_LOCALES, 'zh-CN')));

export const setConsoleLocale = (next: ConsoleLocale) => {
  rememberLocale(STORAGE_KEY, next);
  apply(next);
};

export interface ConsoleI18n {
  locale: ConsoleLocale;
  t(key: ConsoleKey, params?: Params): string;
  /** Dates and times in the console's language, local time zone. */
  time(ms: number | null | undefined): string;
  number(value: number): string;
  /** A human sentence for a failure: the catalogue's translation, never the server's English and code. */
  errorText(error: unknown): string;
}

const translators = new Map<ConsoleLocale, ConsoleI18n>();
const translator = (current: ConsoleLocale): ConsoleI18n => {
  const cached = translators.get(current);
  if (cached) return cached;
  const dates = new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' });
  const numbers = new Intl.NumberFormat(current, { maximumFractionDigits: 2 });
  const text = TEXTS[current];
  const errorTexts: ErrorTexts = {
    errors: ERRORS[current],
    unknownCode: text['error.unknownCode'],
    unexpected: text['error.unexpected'],
    ...(current === 'zh-CN' ? { detail: (english: string) => zhDetail(english) ?? english } : {}),
  };
  const made: ConsoleI18n = {
    locale: current,
    t: (key, params) => fill(text[key], params),
    errorText: (error) => describeError(errorTexts, error),
    time: (ms) => (ms === null || ms === undefined ? '—' : dates.format(new Date(ms))),
    number: (value) => numbers.format(value),
  };
  translators.set(current, made);
  return made;
};

export const useConsoleText = (): ConsoleI18n => translator(useStore(locale));

/**
 * A screen's own words in both languages, kept beside the screen, as the hook it calls:
 * `const useWords = screenWords(WORDS)`, then `w('added', { name })` fills `{name}` in.
 */
export const screenWords =
  <Word extends string>(words: Record<ConsoleLocale, Record<Word, string>>) =>
  () => {
    const { locale: current } = useConsoleText();
    return (word: Word, params?: Params) => fill(words[current][word], params);
  };

/** The languages and viewports every screen is tried in: a phone (390×844) and a desktop (1280×800). */
import en from '../../src/i18n/locales/en.ts';
import zhCN from '../../src/i18n/locales/zh-CN.ts';

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** Each language with its text, so a test finds the screen by the words shown. */
export const LOCALES = [
  { locale: 'zh-CN', text: zhCN.text },
  { locale: 'en', text: en.text },
] as const;

/** The languages and viewports every screen is tried in: a phone (390×844) and a desktop (1280×800). */
import en from '../../src/i18n/locales/en.ts';
import enMore from '../../src/i18n/locales/en-more.ts';
import zhCN from '../../src/i18n/locales/zh-CN.ts';
import zhCNMore from '../../src/i18n/locales/zh-CN-more.ts';

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** Each language with its text (both parts), so a test finds the screen by the words shown. */
export const LOCALES = [
  { locale: 'zh-CN', text: { ...zhCNMore, ...zhCN.text } },
  { locale: 'en', text: { ...enMore, ...en.text } },
] as const;

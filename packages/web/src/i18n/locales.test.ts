/**
 * The two languages side by side: the same keys and placeholders, the first screen's part and the
 * rest apart, the browser's language chosen when none is remembered, and English free of Chinese
 * characters and punctuation (《》，。：…), which slip in when a sentence is carried over; every
 * claim an application may ask for has its line on the consent screen in both languages.
 */

import { everyClaim, SCOPE_CLAIMS } from '@edupass/protocol';
import { errorsEn } from '@edupass/ui-kit/errors/en.ts';
import { errorsZhCN } from '@edupass/ui-kit/errors/zh-CN.ts';
import { browserLocale } from '@edupass/ui-kit/locale-choice.ts';
import { describe, expect, it } from 'vitest';
import en from './locales/en.ts';
import enMore from './locales/en-more.ts';
import zhCN from './locales/zh-CN.ts';
import zhCNMore from './locales/zh-CN-more.ts';

/** Han characters, CJK punctuation (、。《》「」【】…) and full-width forms (，：？！（）). */
const CHINESE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/u;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

const parts = [
  { name: 'first screen', en: en.text, zh: zhCN.text },
  { name: 'other screens', en: enMore, zh: zhCNMore },
  { name: 'errors', en: errorsEn, zh: errorsZhCN },
] as const;

describe.each(parts)('$name', ({ en: english, zh: chinese }) => {
  it('has the same keys and the same placeholders in both languages', () => {
    expect(Object.keys(chinese).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      expect(placeholders(chinese[key as keyof typeof chinese]), key).toEqual(placeholders(text));
    }
  });

  it('has no Chinese character or punctuation in English', () => {
    const slips = Object.entries(english).filter(([, text]) => CHINESE.test(text));
    expect(slips).toEqual([]);
  });
});

it('keeps the first screen and the other screens apart (no key in both)', () => {
  const first = new Set(Object.keys(en.text));
  expect(Object.keys(enMore).filter((key) => first.has(key))).toEqual([]);
});

it("takes the browser's first language served, by primary language, else the fallback", () => {
  const locales = ['zh-CN', 'en'] as const;
  expect(browserLocale(locales, 'zh-CN', ['en-US', 'zh-CN'])).toBe('en');
  expect(browserLocale(locales, 'zh-CN', ['en-GB'])).toBe('en');
  expect(browserLocale(locales, 'zh-CN', ['zh-TW', 'en'])).toBe('zh-CN');
  expect(browserLocale(locales, 'zh-CN', ['fr-FR', 'en'])).toBe('en');
  expect(browserLocale(locales, 'zh-CN', ['fr-FR', 'de'])).toBe('zh-CN');
  expect(browserLocale(locales, 'zh-CN', [])).toBe('zh-CN');
});

it('names every claim of every scope on the consent screen, in both languages', () => {
  expect(Object.keys(SCOPE_CLAIMS)).toContain('profile');
  expect(everyClaim()).toContain('name');
  for (const [language, texts] of [
    ['en', enMore],
    ['zh-CN', zhCNMore],
  ] as const) {
    const missing = everyClaim().filter((claim) => {
      const line = (texts as Record<string, string | undefined>)[`claim.${claim}`];
      return line === undefined || line.trim() === '';
    });
    expect(missing, `claims without a line in ${language}`).toEqual([]);
  }
});

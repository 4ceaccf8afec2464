import { CAPTCHA_MESSAGES } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import type { Page } from './globals.ts';
import { CAPTCHA_TEXT, chooseLocale } from './locale.ts';

/** Just the parts of a page the choice reads. */
const pageWith = (lang: string, languages: string[] = [], language = languages[0] ?? ''): Page =>
  ({
    document: { documentElement: { lang } },
    window: { navigator: { languages, language } },
  }) as unknown as Page;

describe('the captcha language', () => {
  it('is the one asked for, whatever the page says', () => {
    expect(chooseLocale('en', pageWith('zh-CN', ['zh-CN']))).toBe('en');
    expect(chooseLocale('zh-CN', pageWith('en', ['en-US']))).toBe('zh-CN');
  });

  it("otherwise follows the page's <html lang>: any Chinese is zh-CN, any other language English", () => {
    expect(chooseLocale(undefined, pageWith('zh-CN', ['en-US']))).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith('zh'))).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith('zh-Hant-TW'))).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith('ZH_cn'))).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith('en-GB', ['zh-CN']))).toBe('en');
    expect(chooseLocale(undefined, pageWith('fr'))).toBe('en');
    // A language that merely starts with the letters is not Chinese.
    expect(chooseLocale(undefined, pageWith('zha'))).toBe('en');
  });

  it("falls back to the browser's languages when the page declares none", () => {
    expect(chooseLocale(undefined, pageWith('', ['zh-TW', 'en']))).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith('  ', ['en-US', 'zh-CN']))).toBe('en');
    expect(chooseLocale(undefined, pageWith('', [], 'zh-HK'))).toBe('zh-CN');
  });

  it('is Chinese where nothing says otherwise (no page, nothing declared)', () => {
    expect(chooseLocale(undefined, undefined)).toBe('zh-CN');
    expect(chooseLocale(undefined, pageWith(''))).toBe('zh-CN');
    expect(chooseLocale('', undefined)).toBe('zh-CN');
  });
});

describe('the captcha texts', () => {
  it("speak the specification's English word for word where it quotes the box", () => {
    expect(CAPTCHA_TEXT.en).toMatchObject({ prompt: CAPTCHA_MESSAGES.prompt, close: CAPTCHA_MESSAGES.close });
  });

  it('tell a person what to do in plain English, never the error message of the specification', () => {
    const { en } = CAPTCHA_TEXT;
    expect(en.hint).toBe('Drag the slider to fit the piece');
    expect(CAPTCHA_TEXT['zh-CN'].hint).toBe('拖动滑块完成拼图');
    for (const [key, text] of Object.entries(en)) {
      if (typeof text !== 'string' || key === 'prompt' || key === 'close') continue;
      expect(text, key).not.toBe(CAPTCHA_MESSAGES.rejected);
      expect(text, key).toMatch(/^[A-Z]/);
    }
    // What is said after something went wrong is whole sentences.
    for (const said of [en.rejected, en.expired, en.network]) expect(said).toMatch(/^[A-Z][^.]*\.( [A-Z][^.]*\.)*$/);
  });

  it('have every text in Chinese too, none left in English', () => {
    const { en, 'zh-CN': zh } = CAPTCHA_TEXT;
    for (const [key, text] of Object.entries(zh)) {
      if (typeof text === 'string') expect(text, key).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(en.position(7, 252)).toBe('7 of 252');
    expect(zh.position(7, 252)).toBe('7 / 252');
  });
});

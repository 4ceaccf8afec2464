/**
 * Agreements in every language: the shipped ones in Chinese and English, each read in the reader's
 * language (asked for, else the browser's, else Chinese) and in the other when a version lacks it,
 * and published by operators one text per language.
 */
import type { Agreement, AgreementText } from '@edupass/protocol';
import { A, expectError, signInOperator } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call } = useTestServer();
const TEXT = `${A}/agreements/text`;
const inLanguage = (language: string) => ({ headers: { 'accept-language': language } });

let operator: string;
beforeAll(async () => {
  operator = (await signInOperator(server)).token;
});

describe('the shipped agreements', () => {
  it('are in Chinese and English, titled in the browser language, every title given', async () => {
    for (const [language, titles] of [
      ['', ['用户协议', '隐私政策']],
      ['zh-CN,zh;q=0.9', ['用户协议', '隐私政策']],
      ['zh-TW', ['用户协议', '隐私政策']],
      ['en-GB,en;q=0.9', ['Terms of Service', 'Privacy Policy']],
      ['fr-FR, en;q=0.5, zh;q=0.4', ['Terms of Service', 'Privacy Policy']],
      ['fr', ['用户协议', '隐私政策']],
    ] as const) {
      const listed = await call<Agreement[]>('GET', `${A}/agreements`, undefined, inLanguage(language));
      expect(
        listed.body.map((a) => a.title),
        language,
      ).toEqual(titles);
      const toSign = await call<Agreement[]>('GET', `${A}/agreements/need-sign`, undefined, inLanguage(language));
      expect(
        toSign.body.map((a) => a.title),
        language,
      ).toEqual(titles);
      expect(listed.body[0]?.titles).toEqual({ 'zh-CN': '用户协议', en: 'Terms of Service' });
    }
  });

  it('are read in the language asked for, else the browser language; an unknown language is E_1', async () => {
    const zh = await call<AgreementText>('GET', `${TEXT}?code=terms&lang=zh-CN`, undefined, inLanguage('en'));
    expect(zh.body).toMatchObject({ title: '用户协议', lang: 'zh-CN', version: 1 });
    expect(zh.body.content).toMatch(/合法使用/);
    const en = await call<AgreementText>('GET', `${TEXT}?code=privacy&lang=en`);
    expect(en.body).toMatchObject({ title: 'Privacy Policy', lang: 'en' });
    expect(en.body.content).toMatch(/never sell it/);
    const browser = await call<AgreementText>('GET', `${TEXT}?code=privacy`, undefined, inLanguage('en-US'));
    expect(browser.body.lang).toBe('en');
    expectError(await call('GET', `${TEXT}?code=terms&lang=fr`), 'E_1');
  });
});

describe('publishing', () => {
  const publish = (body: Record<string, unknown>) => call('POST', '/admin/agreements', body, { token: operator });

  it('a version in one language is read in it by everyone; both languages are kept apart', async () => {
    const english = await publish({ code: 'pupils', title_en: 'Minors', content_en: 'For parents.' });
    expect(english.status, JSON.stringify(english.body)).toBe(200);
    expect(english.body).toMatchObject({ title: 'Minors', texts: [{ lang: 'en', title: 'Minors' }] });
    const read = await call<AgreementText>('GET', `${TEXT}?code=pupils&lang=zh-CN`);
    expect(read.body).toMatchObject({ title: 'Minors', content: 'For parents.', lang: 'en' });
    const listed = await call<Agreement[]>('GET', `${A}/agreements`, undefined, inLanguage('zh-CN'));
    expect(listed.body.find((a) => a.code === 'pupils')).toMatchObject({ title: 'Minors', titles: { en: 'Minors' } });

    const both = await publish({
      code: 'pupils',
      title: '未成年人保护',
      content: '写给家长。',
      title_en: 'Minors',
      content_en: 'For parents, v2.',
    });
    expect(both.status).toBe(200);
    for (const [lang, content] of [
      ['zh-CN', '写给家长。'],
      ['en', 'For parents, v2.'],
    ]) {
      const text = await call<AgreementText>('GET', `${TEXT}?code=pupils&lang=${lang}`);
      expect(text.body).toMatchObject({ version: 2, lang, content });
    }
    const versions = await call<{ code: string; version: number; texts: unknown[] }[]>(
      'GET',
      '/admin/agreements',
      undefined,
      { token: operator },
    );
    expect(versions.body.find((a) => a.code === 'pupils' && a.version === 2)?.texts).toEqual([
      { lang: 'zh-CN', title: '未成年人保护', content: '写给家长。' },
      { lang: 'en', title: 'Minors', content: 'For parents, v2.' },
    ]);
  });

  it('a language given half (a title without content, or the reverse) or none at all is E_1', async () => {
    for (const body of [
      { title: '条款' },
      { content_en: 'Words.' },
      { title: '条款', content: '内容', title_en: 'Terms' },
      { title: '  ', content: '   ' },
      {},
    ]) {
      expectError(await publish({ code: 'terms', ...body }), 'E_1');
    }
  });
});

/**
 * The language an agreement is read in: the one the page asks for (`lang`), else the first of the
 * browser's Accept-Language that agreements are kept in (`en-GB` is `en`, `zh-TW` is `zh-CN`), else
 * Chinese. A version without a text in that language is read in the other one.
 */
import { AGREEMENT_LANGUAGES, type AgreementLanguage } from '@edupass/protocol';
import { invalidRequest } from '../../errors.ts';
import { type AgreementTextRow, firstText } from '../../store/account/agreement-languages.ts';

const primary = (tag: string) => tag.trim().toLowerCase().split(/[-_;]/)[0] ?? '';

const served = (tag: string): AgreementLanguage | undefined =>
  AGREEMENT_LANGUAGES.find((lang) => primary(lang) === primary(tag));

/** The language asked for (E_1 for one agreements are not kept in), else the browser's, else Chinese. */
export const readerLanguage = (asked: string | undefined, acceptLanguage: string | undefined): AgreementLanguage => {
  if (asked !== undefined) {
    const lang = AGREEMENT_LANGUAGES.find((l) => l.toLowerCase() === asked.toLowerCase()) ?? served(asked);
    if (!lang) throw invalidRequest(`lang must be one of ${AGREEMENT_LANGUAGES.join(', ')}.`);
    return lang;
  }
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, at) => {
      const q = /;\s*q=([\d.]+)/.exec(part)?.[1];
      return { tag: part, q: q === undefined ? 1 : Number(q), at };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.at - b.at);
  for (const { tag } of ranked) {
    const lang = served(tag);
    if (lang) return lang;
  }
  return AGREEMENT_LANGUAGES[0];
};

/** The text in `lang`, else in the first language that has one. */
export const textIn = (texts: readonly AgreementTextRow[], lang: AgreementLanguage): AgreementTextRow | undefined =>
  texts.find((text) => text.lang === lang) ?? firstText(texts);

/** The title in every language the version has, for a page that switches language. */
export const titlesOf = (texts: readonly AgreementTextRow[]): Record<string, string> =>
  Object.fromEntries(texts.map((text) => [text.lang, text.title]));

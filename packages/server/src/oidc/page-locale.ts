/**
 * The language of the pages the provider renders itself (oidc/pages.ts), as the web client would
 * choose it: the `ui_locales` the application sent (RP-initiated logout has it), else the language the
 * visitor chose in the web client (its cookie, LOCALE_COOKIE), else the browser's (Accept-Language),
 * else Chinese.
 */
import { LOCALE_COOKIE } from '@edupass/protocol';

export const PAGE_LOCALES = ['zh-CN', 'en'] as const;
export type PageLocale = (typeof PAGE_LOCALES)[number];

/** What the page's language is read from: Koa's request, as the provider hands it to its pages. */
export interface PageRequest {
  acceptsLanguages(languages: string[]): string | false;
  cookies: { get(name: string): string | undefined };
  oidc?: { params?: Record<string, unknown> | undefined } | undefined;
}

/** One of the page languages a language tag (`en-GB`, `zh-TW`, `zh`) is served by; undefined for others. */
const served = (tag: string): PageLocale | undefined => {
  const primary = tag.trim().toLowerCase().split('-')[0];
  return PAGE_LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === primary);
};

export const pageLocale = (request: PageRequest): PageLocale => {
  const uiLocales = request.oidc?.params?.ui_locales;
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(' ')) {
      const locale = served(tag);
      if (locale) return locale;
    }
  }
  const remembered = request.cookies.get(LOCALE_COOKIE);
  if (remembered && (PAGE_LOCALES as readonly string[]).includes(remembered)) return remembered as PageLocale;
  const accepted = request.acceptsLanguages(['zh-CN', 'en', 'zh']);
  return (accepted && served(accepted)) || 'zh-CN';
};

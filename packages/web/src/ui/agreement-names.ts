/** How agreements are named and linked in running text (the consent box, the gate, the sheet). */
import type { Agreement } from '@edupass/protocol';

type Titled = { title: string; titles?: Record<string, string> | undefined };

/** An agreement's title in the page's language, else as the server gave it (in the browser's). */
export const agreementTitle = (agreement: Titled, locale: string): string =>
  agreement.titles?.[locale] ?? agreement.title;

/** The title as a name in running text: 《…》 in Chinese, as it is in English. */
export const quotedTitle = (agreement: Titled, locale: string): string =>
  locale === 'en' ? agreementTitle(agreement, locale) : `《${agreementTitle(agreement, locale)}》`;

/** Where an agreement's version is read on its own. */
export const legalPath = (agreement: Pick<Agreement, 'code' | 'version'>) =>
  `/legal/${encodeURIComponent(agreement.code)}?version=${agreement.version}`;

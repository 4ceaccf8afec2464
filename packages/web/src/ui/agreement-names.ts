/** How agreements are named and linked in running text (the consent box, the gate, the sheet). */
import type { Agreement } from '@edupass/protocol';

/** An agreement's title in the page's language: titles are stored as "中文 / English". */
export const agreementTitle = (agreement: { title: string }, locale: string): string => {
  const [zh, en] = agreement.title.split(' / ');
  return (locale === 'en' ? en : zh) ?? agreement.title;
};

/** The title as a name in running text: 《…》 in Chinese, as it is in English. */
export const quotedTitle = (agreement: { title: string }, locale: string): string =>
  locale === 'en' ? agreementTitle(agreement, locale) : `《${agreementTitle(agreement, locale)}》`;

/** Where an agreement's version is read on its own. */
export const legalPath = (agreement: Pick<Agreement, 'code' | 'version'>) =>
  `/legal/${encodeURIComponent(agreement.code)}?version=${agreement.version}`;

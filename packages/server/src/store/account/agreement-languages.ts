/**
 * Agreement texts by language: the shipped defaults, and the texts of versions that did not say their
 * language (written before texts were kept per language, migration 026, or by `insertAgreement`
 * without texts). Titles were once kept as "中文 / English" in one string.
 */
import { AGREEMENT_LANGUAGES, type AgreementLanguage } from '@edupass/protocol';

export interface AgreementTextRow {
  lang: AgreementLanguage;
  title: string;
  content: string;
}

/** Chinese when the text has any Han character, else English. */
export const languageOf = (text: string): AgreementLanguage => (/\p{Script=Han}/u.test(text) ? 'zh-CN' : 'en');

/**
 * The texts of a version written without languages: a "中文 / English" title gives both languages
 * their half over the one content (as such versions were always shown), any other title one text in
 * the content's language.
 */
export const textsOf = (row: { title: string; content: string }): AgreementTextRow[] => {
  const halves = row.title.split(' / ');
  if (halves.length === 2 && halves.every((half) => half.trim() !== '')) {
    return [
      { lang: 'zh-CN', title: halves[0] as string, content: row.content },
      { lang: 'en', title: halves[1] as string, content: row.content },
    ];
  }
  return [{ lang: languageOf(row.content), title: row.title, content: row.content }];
};

/** The first language among `texts`: the one an agreement row's own title and content hold. */
export const firstText = <T extends { lang: string }>(texts: readonly T[]): T | undefined =>
  AGREEMENT_LANGUAGES.map((lang) => texts.find((text) => text.lang === lang)).find((text) => text !== undefined) ??
  texts[0];

/** The shipped agreements, in both languages, published on a first start (store/seed.ts). */
export const DEFAULT_AGREEMENTS: readonly { code: string; texts: readonly AgreementTextRow[] }[] = [
  {
    code: 'terms',
    texts: [
      {
        lang: 'zh-CN',
        title: '用户协议',
        content:
          '使用本网站，即表示你同意合法使用，并保管好自己的账号和密码。\n\n未满 14 周岁的孩子，请在家长或老师的陪同下阅读本协议。',
      },
      {
        lang: 'en',
        title: 'Terms of Service',
        content:
          'By using this site you agree to use it lawfully and to keep your account credentials safe.\n\nChildren under 14: please read these terms with a parent or teacher.',
      },
    ],
  },
  {
    code: 'privacy',
    texts: [
      {
        lang: 'zh-CN',
        title: '隐私政策',
        content: '我们只保存运行你的账号所需的信息，绝不出售。\n\n你可以随时在账号中心查看、更改或删除你的信息。',
      },
      {
        lang: 'en',
        title: 'Privacy Policy',
        content:
          'We keep only the data needed to run your account and never sell it.\n\nYou can see, change or delete your data at any time in your account centre.',
      },
    ],
  },
];

/**
 * The text a guardian reads before consenting: every element the 2019 rules on children's personal
 * information ask a consent to state (CONSENT_ELEMENTS), in Chinese and English, with one version
 * number for both. The operator replaces it (the settings key below; each save is a new version), and
 * every consent record names the version it was given under. The words here are a starting point;
 * what they promise is the operator's to decide (docs/operators.md).
 */
import { CONSENT_ELEMENTS, type ConsentElement, type ConsentText } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { invalidRequest } from '../../../errors.ts';
import { findSetting, putSetting, settingOrCreate } from '../../../store/admin/settings.ts';
import { eduAudit } from '../audit.ts';

const SETTING_KEY = 'guardian_consent_text';
/** The longest element an operator may write. */
const ELEMENT_MAX = 2000;

export const DEFAULT_CONSENT_TEXT: ConsentText = {
  version: 1,
  'zh-CN': {
    purpose: '为孩子开设学习账号，让孩子登录本平台的课程和学习社区。',
    data: '手机号（如有）、昵称、出生年月、所在学校和班级，以及使用记录。不收集身份证号。',
    storage: '账号存续期间保存；账号删除后立即删除，法律要求保留的记录除外。',
    security: '数据加密传输和存储，只有经过授权并留有记录的工作人员才能查看。',
    refusal: '如果您不同意，孩子的账号会被删除，孩子不能继续使用。',
    rights: '您可以随时在"家长"页面查看、更正或删除孩子的信息，也可以撤回同意。',
  },
  en: {
    purpose: "To open a learning account for your child, so they can sign in to this platform's courses and community.",
    data: 'Phone number (if any), nickname, year and month of birth, school and class, and records of use. No ID-card number.',
    storage: 'Kept while the account exists; deleted when it is deleted, except records the law asks us to keep.',
    security: 'Encrypted in transit and at rest; only authorised staff may see it, and every look is recorded.',
    refusal: "If you do not agree, your child's account is deleted and cannot be used.",
    rights: "On the Guardian page you can see, correct or delete your child's data at any time, or withdraw consent.",
  },
};

export const currentConsentText = async (ctx: Pick<Context, 'db'>): Promise<ConsentText> => {
  const stored = await findSetting(ctx.db, SETTING_KEY);
  return stored === undefined ? DEFAULT_CONSENT_TEXT : (JSON.parse(stored) as ConsentText);
};

/** The elements of one language, read from whatever the operator sent (`unknown`: the route takes any JSON). */
const elementsOf = (value: unknown, lang: string) => {
  const given = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(
    CONSENT_ELEMENTS.map((element) => {
      const text = given[element];
      if (typeof text !== 'string' || text.trim() === '' || text.length > ELEMENT_MAX) {
        throw invalidRequest(`The consent text needs "${element}" in ${lang} (1 to ${ELEMENT_MAX} characters).`);
      }
      return [element, text.trim()];
    }),
  ) as Record<ConsentElement, string>;
};

/**
 * Saves an operator's text as the next version: every element, both languages, none empty (E_1).
 * Consents given from now on record the new version; earlier records keep theirs.
 */
export const saveConsentText = async (
  ctx: Pick<Context, 'db' | 'now' | 'keys'>,
  operatorId: number,
  text: { 'zh-CN': unknown; en: unknown },
) => {
  const next: ConsentText = {
    version: (await currentConsentText(ctx)).version + 1,
    'zh-CN': elementsOf(text['zh-CN'], 'zh-CN'),
    en: elementsOf(text.en, 'en'),
  };
  const written = JSON.stringify(next);
  // Each version is kept under its own key, written once: a consent names its version, so its words
  // stay readable, and of two saves at once only the first takes the number.
  if ((await settingOrCreate(ctx.db, `${SETTING_KEY}:v${next.version}`, () => written)) !== written) {
    throw invalidRequest('The consent text was changed at the same moment: load it again and save your version.');
  }
  await putSetting(ctx.db, SETTING_KEY, written);
  await eduAudit(ctx, operatorId, 'consent_text.save', 'consent_text', `version ${next.version}`);
  return next;
};

/**
 * An agreement's text as users read it before they consent: the operator's content of a published
 * version (in effect now or before; a version yet to take effect is not published), by code and
 * version, in the reader's language when the version has it (reader-language.ts).
 */
import type { AgreementLanguage, AgreementText } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { agreementTexts, publishedAgreement } from '../../store/account/agreements.ts';
import { textIn } from './reader-language.ts';

export const readAgreementText = async (
  ctx: Context,
  code: string,
  version: string | undefined,
  lang: AgreementLanguage,
): Promise<AgreementText> => {
  if (version !== undefined && !/^[1-9]\d{0,8}$/.test(version)) {
    throw invalidRequest('version must be a positive whole number.');
  }
  const row = await publishedAgreement(ctx.db, code, version === undefined ? undefined : Number(version), ctx.now());
  if (!row)
    return fail('E_2', `No published agreement "${code}"${version === undefined ? '' : ` version ${version}`}.`);
  const { id, ...agreement } = row;
  const text = textIn((await agreementTexts(ctx.db, [Number(id)])).get(Number(id)) ?? [], lang);
  return text ? { ...agreement, title: text.title, content: text.content, lang: text.lang } : agreement;
};

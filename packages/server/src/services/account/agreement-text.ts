/**
 * An agreement's text as users read it before they consent: the operator's content of a published
 * version (in effect now or before; a version yet to take effect is not published), by code and version.
 */
import type { AgreementText } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { publishedAgreement } from '../../store/account/agreements.ts';

export const readAgreementText = async (
  ctx: Context,
  code: string,
  version: string | undefined,
): Promise<AgreementText> => {
  if (version !== undefined && !/^[1-9]\d{0,8}$/.test(version)) {
    throw invalidRequest('version must be a positive whole number.');
  }
  const row = await publishedAgreement(ctx.db, code, version === undefined ? undefined : Number(version), ctx.now());
  return row ?? fail('E_2', `No published agreement "${code}"${version === undefined ? '' : ` version ${version}`}.`);
};

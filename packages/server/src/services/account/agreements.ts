import type { AgreementLanguage, Agreement as WireAgreement } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { agreementTexts, currentAgreements, signedAgreementIds } from '../../store/account/agreements.ts';
import type { Agreement, User } from '../../store/schema.ts';
import { signedAgreementsOf } from '../../store/sessions/sessions.ts';
import { agreementsNotThePupils } from '../edu/family/school-agreements.ts';
import { findUserById } from '../identity/request-reads.ts';
import { requireProduct } from '../platform/products.ts';
import { chosenAgreements } from '../sign-in/session-answer.ts';
import { inTransaction } from '../webhooks/events.ts';
import { signRecorded } from './agreement-signatures.ts';
import { textIn, titlesOf } from './reader-language.ts';

/** The agreements as readers get them: the title in `lang` (else another), and every language's title. */
const toWire = async (ctx: Context, agreements: Agreement[], lang: AgreementLanguage): Promise<WireAgreement[]> => {
  const texts = await agreementTexts(
    ctx.db,
    agreements.map((a) => Number(a.id)),
  );
  return agreements.map((a) => {
    const own = texts.get(Number(a.id)) ?? [];
    return {
      id: a.id,
      code: a.code,
      title: textIn(own, lang)?.title ?? a.title,
      version: a.version,
      url: a.url,
      effective_at: a.effective_at,
      titles: titlesOf(own),
    };
  });
};

export const listAgreements = async (ctx: Context, lang: AgreementLanguage) =>
  toWire(ctx, await currentAgreements(ctx.db, ctx.now()), lang);

/**
 * Current agreements the user has not signed; every current one for a visitor; none for a pupil whose
 * school accepted them under its agreement, or whose guardian decides (edu/family/school-agreements.ts).
 */
const unsigned = async (ctx: Context, userId: number | undefined): Promise<Agreement[]> => {
  const current = await currentAgreements(ctx.db, ctx.now());
  if (userId === undefined) return current;
  const user = await findUserById(ctx.db, userId);
  if (user !== undefined && (await agreementsNotThePupils(ctx, user))) return [];
  const signed = await signedAgreementIds(ctx.db, userId);
  return current.filter((a) => !signed.has(a.id));
};

export const agreementsToSign = async (ctx: Context, userId: number | undefined, lang: AgreementLanguage) =>
  toWire(ctx, await unsigned(ctx, userId), lang);

export const hasAgreementsToSign = async (ctx: Context, userId: number): Promise<boolean> =>
  (await unsigned(ctx, userId)).length > 0;

/**
 * A sign-in finishes (an OpenID Connect interaction completes, a return address is handed out) only
 * for an account that has signed every agreement in effect: E_15 otherwise, and the web client shows
 * the agreements gate. Decided here, not by the order in which the client's answers arrive.
 * `sessionUser`: the user as the caller's session read it, with the agreements it found signed
 * (store/sessions/sessions.ts `signedAgreementsOf`): when they hold every one in effect nothing is
 * read; otherwise the signatures are read afresh (one may have been signed since the session was read,
 * or the account be a pupil's whose school signs for it).
 */
export const requireAgreementsSigned = async (ctx: Context, userId: number, sessionUser?: User): Promise<void> => {
  const signed = sessionUser && signedAgreementsOf(sessionUser);
  if (signed !== undefined && (await currentAgreements(ctx.db, ctx.now())).every((a) => signed.has(a.id))) return;
  if (await hasAgreementsToSign(ctx, userId)) fail('E_15');
};

export const sign = async (ctx: Context, userId: number, ids: number[], pid: string) => {
  await requireProduct(ctx, pid);
  const chosen = await chosenAgreements(ctx, ids);
  await inTransaction(ctx, (tx) => signRecorded(tx, userId, chosen, pid));
};

export const latestByCode = async (ctx: Context, codes: string[], pid: string, lang: AgreementLanguage) => {
  await requireProduct(ctx, pid);
  const wanted = new Set(codes);
  return toWire(
    ctx,
    (await currentAgreements(ctx.db, ctx.now())).filter((a) => wanted.has(a.code)),
    lang,
  );
};

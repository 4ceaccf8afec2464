import type { Agreement as WireAgreement } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { currentAgreements, signedAgreementIds } from '../../store/account/agreements.ts';
import type { Agreement } from '../../store/schema.ts';
import { requireProduct } from '../platform/products.ts';
import { chosenAgreements } from '../sign-in/session-answer.ts';
import { inTransaction } from '../webhooks/events.ts';
import { signRecorded } from './agreement-signatures.ts';

const toWire = (a: Agreement): WireAgreement => ({
  id: a.id,
  code: a.code,
  title: a.title,
  version: a.version,
  url: a.url,
  effective_at: a.effective_at,
});

export const listAgreements = async (ctx: Context) => (await currentAgreements(ctx.db, ctx.now())).map(toWire);

/** Current agreements the user has not signed; every current one for a visitor. */
export const agreementsToSign = async (ctx: Context, userId: number | undefined) => {
  const current = await currentAgreements(ctx.db, ctx.now());
  if (userId === undefined) return current.map(toWire);
  const signed = await signedAgreementIds(ctx.db, userId);
  return current.filter((a) => !signed.has(a.id)).map(toWire);
};

export const hasAgreementsToSign = async (ctx: Context, userId: number): Promise<boolean> =>
  (await agreementsToSign(ctx, userId)).length > 0;

/**
 * A sign-in finishes (an OpenID Connect interaction completes, a return address is handed out) only
 * for an account that has signed every agreement in effect: E_15 otherwise, and the web client shows
 * the agreements gate. Decided here, not by the order in which the client's answers arrive.
 */
export const requireAgreementsSigned = async (ctx: Context, userId: number): Promise<void> => {
  if (await hasAgreementsToSign(ctx, userId)) fail('E_15');
};

export const sign = async (ctx: Context, userId: number, ids: number[], pid: string) => {
  await requireProduct(ctx, pid);
  const chosen = await chosenAgreements(ctx, ids);
  await inTransaction(ctx, (tx) => signRecorded(tx, userId, chosen, pid));
};

export const latestByCode = async (ctx: Context, codes: string[], pid: string) => {
  await requireProduct(ctx, pid);
  const wanted = new Set(codes);
  return (await currentAgreements(ctx.db, ctx.now())).filter((a) => wanted.has(a.code)).map(toWire);
};

import type { Context } from '../../context.ts';
import { signAgreements } from '../../store/account/agreements.ts';
import { recordEvent } from '../webhooks/events.ts';

/**
 * Signs agreements through `tx.db` (a transaction's context, see `inTransaction`), with an
 * `agreement.signed` event naming the ones newly signed.
 */
export const signRecorded = async (tx: Context, userId: number, ids: number[], product: string) => {
  const signed = await signAgreements(tx.db, userId, ids, tx.now());
  if (signed.length === 0) return;
  await recordEvent(tx, { type: 'agreement.signed', userId, product, data: { agreement_ids: signed } });
};

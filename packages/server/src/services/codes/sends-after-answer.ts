/**
 * Code sends that finish after the answer. An e-mail reset or sign-in code to an address an account
 * has is delivered once the request has answered, so that answer comes as fast as for an address no
 * account has (nothing is sent): the time to answer tells no more than the answer. A failed delivery
 * is logged and its code withdrawn (sendCode); closing the server waits for the sends under way.
 */
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';

// By the context's delivery, which a transaction's context shares with its parent.
const underWay = new WeakMap<object, Set<Promise<void>>>();

/** Starts `send` once the current request has answered (not before: none of its work delays the answer). */
export const finishAfterAnswer = (ctx: Context, send: () => Promise<void>) => {
  const sends = underWay.get(ctx.delivery) ?? new Set();
  underWay.set(ctx.delivery, sends);
  const tracked: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(send)
    .catch((error: unknown) => {
      // sendCode logged its own failure (ApiError E_6); anything else is logged here.
      if (!(error instanceof ApiError)) ctx.logger.error({ err: error }, 'code send after the answer failed');
    })
    .finally(() => sends.delete(tracked));
  sends.add(tracked);
};

/** Resolves once every send under way through `delivery` has finished. */
export const sendsFinished = async (delivery: object) => {
  await Promise.all(underWay.get(delivery) ?? []);
};

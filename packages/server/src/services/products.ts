import type { Context } from '../context.ts';
import { fail } from '../errors.ts';

/** The product code of a pid; an unknown pid is AC3_24. */
export const requireProduct = async (ctx: Context, pid: string): Promise<string> => {
  const row = await ctx.db.selectFrom('products').select('product_code').where('pid', '=', pid).executeTakeFirst();
  return row?.product_code ?? fail('AC3_24');
};

import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { productCodeOf } from '../../store/admin/products.ts';

/** The product code of a pid; an unknown pid is AC3_24. */
export const requireProduct = async (ctx: Context, pid: string): Promise<string> => {
  // No product id holds a control character, and PostgreSQL refuses NUL in a query: unknown at once.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (/[\u0000-\u001f\u007f]/.test(pid)) return fail('AC3_24');
  return (await productCodeOf(ctx.db, pid)) ?? fail('AC3_24');
};

/** First-start data: the configured products and the default agreements. Safe to run on every start. */
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import { countAgreements } from './account/agreements.ts';
import { upsertProducts } from './admin/products.ts';
import type { Database } from './schema.ts';

const DEFAULT_AGREEMENTS = [
  {
    code: 'terms',
    title: '用户协议 / Terms of Service',
    content: 'By using this site you agree to use it lawfully and to keep your account credentials safe.',
  },
  {
    code: 'privacy',
    title: '隐私政策 / Privacy Policy',
    content: 'We keep only the data needed to run your account and never sell it.',
  },
] as const;

export const seed = async (db: Kysely<Database>, config: Config): Promise<void> => {
  await upsertProducts(db, config.products);
  if ((await countAgreements(db)) > 0) return;
  const now = Date.now();
  // Servers starting together on one database may both find none: the second inserts nothing.
  await db
    .insertInto('agreements')
    .values(
      DEFAULT_AGREEMENTS.map((agreement) => ({
        ...agreement,
        version: 1,
        url: `/legal/${agreement.code}?version=1`,
        effective_at: now,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['code', 'version']).doNothing())
    .execute();
};

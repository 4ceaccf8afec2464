import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export const upsertProducts = async (db: Db, products: Record<string, string>) => {
  for (const [pid, product_code] of Object.entries(products)) {
    await db
      .insertInto('products')
      .values({ pid, product_code })
      .onConflict((oc) => oc.column('pid').doUpdateSet({ product_code }))
      .execute();
  }
};

export const allProducts = (db: Db) => db.selectFrom('products').selectAll().execute();

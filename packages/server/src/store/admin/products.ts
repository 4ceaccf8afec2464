import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-query.ts';
import type { Database } from '../schema.ts';
import { cachedSetting, forgetSettings } from '../settings-cache.ts';

type Db = Kysely<Database>;

export const upsertProducts = async (db: Db, products: Record<string, string>) => {
  for (const [pid, product_code] of Object.entries(products)) {
    await db
      .insertInto('products')
      .values({ pid, product_code })
      .onConflict((oc) => oc.column('pid').doUpdateSet({ product_code }))
      .execute();
  }
  forgetSettings(db, 'products');
};

export const allProducts = (db: Db) => db.selectFrom('products').selectAll().execute();

export const productPids = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('products').select('pid').orderBy('pid').execute()).map((row) => row.pid);

// Every request naming a product asks it (compiled-query.ts).
const productCodeQuery = compiledOnce(
  (db, pid: string) => db.selectFrom('products').select('product_code').where('pid', '=', pid),
  [''],
);

/** Remembered per process (settings-cache.ts); an unknown product is read every time. */
export const productCodeOf = (db: Db, pid: string): Promise<string | undefined> =>
  cachedSetting(db, 'products', pid, async () => (await productCodeQuery(db, pid)).rows[0]?.product_code);

/** First-start data: the configured products and the default agreements (in Chinese and English). Safe to run on every start. */
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.ts';
import { DEFAULT_AGREEMENTS, firstText } from './account/agreement-languages.ts';
import { countAgreements } from './account/agreements.ts';
import { upsertProducts } from './admin/products.ts';
import type { Database } from './schema.ts';

/**
 * Single statements, each settled by a unique key, and no transaction held across them: servers
 * starting together on one database may all find no agreement, and what one inserts the others skip.
 * (A transaction would make a second SQLite connection in the same process wait on a lock its own
 * event loop holds.) Texts go in after their agreement, for every shipped version-1 agreement that
 * has none, so a start interrupted between the two finishes on the next one.
 */
export const seed = async (db: Kysely<Database>, config: Config): Promise<void> => {
  await upsertProducts(db, config.products);
  if ((await countAgreements(db)) === 0) {
    const now = Date.now();
    await db
      .insertInto('agreements')
      .values(
        DEFAULT_AGREEMENTS.map(({ code, texts }) => ({
          code,
          version: 1,
          url: `/legal/${code}?version=1`,
          title: firstText(texts)?.title ?? code,
          content: firstText(texts)?.content ?? '',
          effective_at: now,
          created_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['code', 'version']).doNothing())
      .execute();
  }
  const textless = await db
    .selectFrom('agreements')
    .select(['id', 'code'])
    .where('version', '=', 1)
    .where(
      'code',
      'in',
      DEFAULT_AGREEMENTS.map(({ code }) => code),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('agreement_texts').select('lang').whereRef('agreement_texts.agreement_id', '=', 'agreements.id'),
        ),
      ),
    )
    .execute();
  const texts = textless.flatMap(({ id, code }) =>
    (DEFAULT_AGREEMENTS.find((shipped) => shipped.code === code)?.texts ?? []).map((text) => ({
      agreement_id: Number(id),
      ...text,
    })),
  );
  if (texts.length === 0) return;
  await db
    .insertInto('agreement_texts')
    .values(texts)
    .onConflict((oc) => oc.columns(['agreement_id', 'lang']).doNothing())
    .execute();
};

import type { Kysely } from 'kysely';
import { DEFAULT_AGREEMENTS, textsOf } from '../account/agreement-languages.ts';
import type { MigrationContext } from './index.ts';

/** The English content the shipped agreements had before they came in both languages. */
const SHIPPED_ENGLISH: Record<string, string> = {
  terms: 'By using this site you agree to use it lawfully and to keep your account credentials safe.',
  privacy: 'We keep only the data needed to run your account and never sell it.',
};

/**
 * Agreement texts per language: a version's title and content in each language it has. Every version
 * written before keeps reading as it did (`textsOf`: a "中文 / English" title gives each language its
 * half); the shipped agreements an operator never changed get the shipped texts in both languages.
 */
export const up = async (db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('agreement_texts')
    .addColumn('agreement_id', dialect === 'postgres' ? 'bigint' : 'integer', (c) =>
      c.notNull().references('agreements.id').onDelete('cascade'),
    )
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('agreement_texts_pk', ['agreement_id', 'lang'])
    .execute();
  const typed = db as unknown as Kysely<{
    agreements: { id: number; code: string; version: number; title: string; content: string };
    agreement_texts: { agreement_id: number; lang: string; title: string; content: string };
  }>;
  const rows = await typed.selectFrom('agreements').select(['id', 'code', 'version', 'title', 'content']).execute();
  const texts = rows.flatMap((row) => {
    const shipped = DEFAULT_AGREEMENTS.find((a) => a.code === row.code);
    const untouched = shipped && row.version === 1 && SHIPPED_ENGLISH[row.code] === row.content;
    const kept = untouched ? shipped.texts : textsOf(row);
    return kept.map((text) => ({ agreement_id: Number(row.id), ...text }));
  });
  if (texts.length > 0) await typed.insertInto('agreement_texts').values(texts).execute();
};

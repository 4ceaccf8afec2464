import { AGREEMENT_LANGUAGES, type AgreementLanguage } from '@edupass/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { cachedSetting, writeSettings } from '../settings-cache.ts';
import { type AgreementTextRow, firstText, textsOf } from './agreement-languages.ts';

type Db = Kysely<Database>;

/**
 * The newest version of every agreement code that is in effect at `now`, from every version, which
 * is remembered per process (settings-cache.ts: a sign-in asks it; publishing a version forgets it).
 */
export const currentAgreements = async (db: Db, now: number) => {
  const versions = await cachedSetting(db, 'agreements', 'all', () =>
    db.selectFrom('agreements').selectAll().orderBy('id').execute(),
  );
  const inEffect = versions.filter((a) => a.effective_at <= now);
  return inEffect.filter((a) => !inEffect.some((b) => b.code === a.code && b.version > a.version));
};

export const findAgreements = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('agreements').selectAll().where('id', 'in', ids).execute();

export const signedAgreementIds = async (db: Db, userId: number): Promise<Set<number>> => {
  const rows = await db
    .selectFrom('agreement_signatures')
    .select('agreement_id')
    .where('user_id', '=', userId)
    .execute();
  return new Set(rows.map((r) => r.agreement_id));
};

/** Records signatures; answers the agreement ids newly signed (ones signed before are left as they were). */
export const signAgreements = async (db: Db, userId: number, ids: number[], now: number): Promise<number[]> => {
  if (ids.length === 0) return [];
  const rows = await db
    .insertInto('agreement_signatures')
    .values(ids.map((agreement_id) => ({ user_id: userId, agreement_id, signed_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'agreement_id']).doNothing())
    .returning('agreement_id')
    .execute();
  return rows.map((row) => Number(row.agreement_id));
};

/** Each version's texts in AGREEMENT_LANGUAGES order, by agreement id. */
export const agreementTexts = async (db: Db, ids: readonly number[]): Promise<Map<number, AgreementTextRow[]>> => {
  const byId = new Map<number, AgreementTextRow[]>();
  if (ids.length === 0) return byId;
  const rows = await db
    .selectFrom('agreement_texts')
    .select(['agreement_id', 'lang', 'title', 'content'])
    .where('agreement_id', 'in', [...ids])
    .execute();
  // Unknown languages (-1, as unsigned) last.
  const rank = (lang: string) => AGREEMENT_LANGUAGES.indexOf(lang as AgreementLanguage) >>> 0;
  rows.sort((a, b) => rank(a.lang) - rank(b.lang));
  for (const { agreement_id, ...text } of rows) {
    const id = Number(agreement_id);
    byId.set(id, [...(byId.get(id) ?? []), { ...text, lang: text.lang as AgreementLanguage }]);
  }
  return byId;
};

/**
 * A new version with its texts (one in its content's language when none are given), in one
 * transaction. The row's own title and content are its first language's, as servers before texts read.
 */
export const insertAgreement = (
  db: Db,
  row: Omit<Database['agreements'], 'id' | 'title' | 'content'> & { title?: string; content?: string },
  given?: readonly AgreementTextRow[],
) => {
  const texts = given ?? textsOf({ title: row.title ?? '', content: row.content ?? '' });
  const first = firstText(texts);
  if (!first) throw new Error('An agreement needs a text in at least one language.');
  return writeSettings(db, 'agreements', () => insertWithTexts(db, row, first, texts));
};

const insertWithTexts = (
  db: Db,
  row: Omit<Database['agreements'], 'id' | 'title' | 'content'>,
  first: AgreementTextRow,
  texts: readonly AgreementTextRow[],
) =>
  db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('agreements')
      .values({ ...row, title: first.title, content: first.content })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('agreement_texts')
      .values(texts.map((text) => ({ agreement_id: inserted.id, ...text })))
      .execute();
    return { ...inserted, id: Number(inserted.id) };
  });

export const countAgreements = async (db: Db): Promise<number> => {
  const row = await db
    .selectFrom('agreements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** A published version (in effect at `now` or before) of an agreement: the given one, else the latest. */
export const publishedAgreement = (db: Db, code: string, version: number | undefined, now: number) => {
  let query = db
    .selectFrom('agreements')
    .select(['id', 'code', 'title', 'version', 'content', 'url', 'effective_at'])
    .where('code', '=', code)
    .where('effective_at', '<=', now);
  query = version === undefined ? query.orderBy('version', 'desc') : query.where('version', '=', version);
  return query.limit(1).executeTakeFirst();
};

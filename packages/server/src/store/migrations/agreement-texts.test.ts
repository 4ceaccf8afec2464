/**
 * Migration 026 keeps every agreement version readable in its language: versions written before get
 * texts that read as before ("中文 / English" titles halved), and the shipped agreements an operator
 * never changed get the shipped texts in Chinese and English.
 */
import { createTestDatabase, type TestDatabase } from '@edupass/test-kit/databases';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../db.ts';
import { migrationsFor } from './index.ts';

let database: TestDatabase;
let store: Store;
beforeAll(async () => {
  database = await createTestDatabase();
  store = openStore(database.url, { poolSize: 1 });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const migrator = () =>
  new Migrator({ db: store.db, provider: { getMigrations: async () => migrationsFor(store.dialect) } });

it('gives versions written before one text in their language, and the untouched shipped ones both', async () => {
  expect((await migrator().migrateTo('022-edu-access-log-join-codes')).error).toBeUndefined();
  // The agreements table is as 001 made it: the schema's type fits.
  const db = store.db;
  const row = { url: '/legal/x', effective_at: 1, created_at: 1 };
  await db
    .insertInto('agreements')
    .values([
      // As the server shipped them: English text under a two-language title.
      {
        ...row,
        code: 'terms',
        version: 1,
        title: '用户协议 / Terms of Service',
        content: 'By using this site you agree to use it lawfully and to keep your account credentials safe.',
      },
      // Shipped, then rewritten by an operator: kept as written.
      { ...row, code: 'privacy', version: 1, title: '隐私政策 / Privacy Policy', content: 'Our own words.' },
      { ...row, code: 'pupils', version: 1, title: '家长须知', content: '写给家长。' },
    ])
    .execute();

  const { error } = await migrator().migrateToLatest();
  expect(error).toBeUndefined();
  const texts = await store.db
    .selectFrom('agreement_texts')
    .innerJoin('agreements', 'agreements.id', 'agreement_texts.agreement_id')
    .select(['agreements.code', 'agreement_texts.lang', 'agreement_texts.title', 'agreement_texts.content'])
    .orderBy('agreements.code')
    .orderBy('agreement_texts.lang')
    .execute();
  expect(texts.map((t) => [t.code, t.lang, t.title])).toEqual([
    ['privacy', 'en', 'Privacy Policy'],
    ['privacy', 'zh-CN', '隐私政策'],
    ['pupils', 'zh-CN', '家长须知'],
    ['terms', 'en', 'Terms of Service'],
    ['terms', 'zh-CN', '用户协议'],
  ]);
  // Read as before: each language its half of the title, over the one content.
  expect(texts.filter((t) => t.code === 'privacy').map((t) => t.content)).toEqual(['Our own words.', 'Our own words.']);
  expect(texts.find((t) => t.code === 'terms' && t.lang === 'zh-CN')?.content).toMatch(/合法使用/);
});

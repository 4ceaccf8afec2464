import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The tamper-evident audit (store/admin/audit-chain.ts): every operator's audit row and every read of a
 * person's record carries its place in its chain (`chain_seq`, 1, 2, 3… without gaps) and its link (an
 * HMAC, under a key of the keyring, over the row and the link before it). `audit_chains` holds each
 * chain's head (the last place and link given, locked by every writer, so places follow one order under
 * parallel writes) and its anchor (the last link of the segment retention dropped, with its own HMAC).
 * Rows written before this migration keep no place: `edupass audit verify` counts them apart, and
 * retention drops them as before.
 */
export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  await db.schema
    .createTable('audit_chains')
    .addColumn('chain', 'text', (c) => c.primaryKey())
    .addColumn('seq', ms, (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('anchor_seq', ms, (c) => c.notNull())
    .addColumn('anchor_link', 'text', (c) => c.notNull())
    .addColumn('anchor_at', ms)
    .addColumn('anchor_mac', 'text')
    .execute();
  await sql`INSERT INTO audit_chains (chain, seq, link, anchor_seq, anchor_link)
    VALUES ('admin_audit', 0, '', 0, ''), ('edu_access_log', 0, '', 0, '')`.execute(db);
  for (const table of ['admin_audit', 'edu_access_log']) {
    await db.schema.alterTable(table).addColumn('chain_seq', ms).execute();
    await db.schema.alterTable(table).addColumn('chain_link', 'text').execute();
    await db.schema.createIndex(`${table}_chain_seq`).on(table).column('chain_seq').unique().execute();
  }
};

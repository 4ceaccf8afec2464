import type { Kysely } from 'kysely';

/**
 * What relying parties and webhook receivers need:
 * - `signing_keys`: each generation also holds the keys that sign ID tokens (RS256 and ES256, apart
 *   from the access-token key): their public JWKs as a JSON array and their private JWKs sealed. Rows
 *   from before get theirs on first read.
 * - `applications.require_pkce`: PKCE asked of a confidential application too (public ones always);
 *   `applications.id_token_alg`: how its ID tokens are signed (applications registered before keep
 *   ES256, what they were given; new ones get RS256).
 * - `webhook_sequences`: the last webhook event number of each user, so receivers can order one
 *   user's events whatever order retries bring them in (kept after the user is deleted, so
 *   `user.deleted` has its number too).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('signing_keys').addColumn('id_token_public_jwks', 'text').execute();
  await db.schema.alterTable('signing_keys').addColumn('id_token_private_sealed', 'text').execute();
  await db.schema
    .alterTable('applications')
    .addColumn('require_pkce', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('applications')
    .addColumn('id_token_alg', 'text', (c) => c.notNull().defaultTo('ES256'))
    .execute();
  await db.schema
    .createTable('webhook_sequences')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('last', 'bigint', (c) => c.notNull())
    .execute();
};

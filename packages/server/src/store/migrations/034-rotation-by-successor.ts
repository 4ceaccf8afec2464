import type { Kysely } from 'kysely';

/**
 * A refresh token is rotated once its successor is stored (the successor is derived from it, so its
 * hash is known): `rotated_at` said the same thing a second time, at the cost of an UPDATE on every
 * refresh. Every token it marked has its successor stored (the rotation stored it next).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema.alterTable('refresh_tokens').dropColumn('rotated_at').execute();
};

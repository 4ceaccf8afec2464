/** The rows of the keys that sign access tokens (services/sessions/signing-keys.ts decides what they mean). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../schema.ts';

type Db = Kysely<Database>;
export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Every key, oldest generation first. */
export const listSigningKeyRows = async (db: Db): Promise<SigningKeyRow[]> => {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('generation', 'asc').execute();
  return rows.map((row) => ({
    ...row,
    generation: Number(row.generation),
    created_at: Number(row.created_at),
    signs_from: Number(row.signs_from),
  }));
};

/**
 * Adds a key as its generation; false when another process took that generation first (it created
 * or rotated at the same moment), so two processes never both add a key for one step.
 */
export const insertSigningKey = async (db: Db, row: SigningKeyRow): Promise<boolean> => {
  const result = await db
    .insertInto('signing_keys')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
};

/** Removes keys older than a generation (retired, with every token they signed expired). */
export const deleteSigningKeysBefore = (db: Db, generation: number) =>
  db.deleteFrom('signing_keys').where('generation', '<', generation).execute();

/** Fills in the ID-token keys of a generation made before they existed, unless another process did. */
export const addIdTokenKeys = (
  db: Db,
  generation: number,
  keys: { id_token_public_jwks: string; id_token_private_sealed: string },
) =>
  db
    .updateTable('signing_keys')
    .set(keys)
    .where('generation', '=', generation)
    .where('id_token_public_jwks', 'is', null)
    .execute();

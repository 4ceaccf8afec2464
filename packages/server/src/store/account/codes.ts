/**
 * One-time codes: one live code per (target, scene), stored hashed; the target (a phone or an e-mail
 * address) kept as its blind index (sealed-records.ts), so the table names no one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { recordSealerOf } from '../sealed-records.ts';

type Db = Kysely<Database>;

/** The phone or address as the table keeps it. */
export const storedTarget = (db: Db, target: string) =>
  recordSealerOf(db)?.index(target.includes('@') ? 'email' : 'phone', target) ?? target;

export const putCode = (db: Db, row: Database['codes']) =>
  db
    .insertInto('codes')
    .values({ ...row, target: storedTarget(db, row.target) })
    .onConflict((oc) =>
      oc.columns(['target', 'scene']).doUpdateSet({
        code_hash: row.code_hash,
        expires_at: row.expires_at,
        attempts: 0,
        created_at: row.created_at,
      }),
    )
    .execute();

/**
 * Counts one guess at the code of `target` and `scene`; answers the attempts made so far with the
 * code's hash and end, as that one statement left them, or undefined when there is no code. The
 * increment happens in one statement so parallel guesses cannot share an attempt, and the hash
 * compared is the one the attempt was counted on (a code sent again meanwhile replaces both).
 */
export const countAttempt = (db: Db, target: string, scene: string) =>
  db
    .updateTable('codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('target', '=', storedTarget(db, target))
    .where('scene', '=', scene)
    .returning(['attempts', 'code_hash', 'expires_at'])
    .executeTakeFirst();

/** Deletes the code if its hash still matches; true when this caller consumed it. */
export const consumeCode = async (db: Db, target: string, scene: string, codeHash: string): Promise<boolean> => {
  const result = await db
    .deleteFrom('codes')
    .where('target', '=', storedTarget(db, target))
    .where('scene', '=', scene)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
};

export const deleteCode = (db: Db, target: string, scene: string) =>
  db.deleteFrom('codes').where('target', '=', storedTarget(db, target)).where('scene', '=', scene).execute();

/** Every code sent to these phones or addresses (an account erased or deleted unconfirmed). */
export const deleteCodesTo = (db: Db, targets: string[]) =>
  targets.length === 0
    ? Promise.resolve()
    : db
        .deleteFrom('codes')
        .where(
          'target',
          'in',
          targets.map((target) => storedTarget(db, target)),
        )
        .execute();

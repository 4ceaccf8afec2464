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

export const findCode = (db: Db, target: string, scene: string) =>
  db
    .selectFrom('codes')
    .selectAll()
    .where('target', '=', storedTarget(db, target))
    .where('scene', '=', scene)
    .executeTakeFirst();

/**
 * Counts one guess; returns the attempts made so far, or undefined when the code is gone. The
 * increment happens in one statement so parallel guesses cannot share an attempt.
 */
export const countAttempt = async (db: Db, target: string, scene: string): Promise<number | undefined> => {
  const row = await db
    .updateTable('codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('target', '=', storedTarget(db, target))
    .where('scene', '=', scene)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
};

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

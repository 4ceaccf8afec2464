import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export const up = async (db: Kysely<unknown>, { ms }: MigrationContext): Promise<void> => {
  // Slide-puzzle challenges: the answer stays here, never in what the client receives.
  await db.schema
    .createTable('captcha_challenges')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('answer_x', 'integer', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('identity', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('used_at', ms)
    .execute();
  await db.schema.createIndex('captcha_challenges_expiry').on('captcha_challenges').column('expires_at').execute();

  // Operator-set policies; '*' in pid or scene matches any. Environment defaults apply where none is set.
  await db.schema
    .createTable('captcha_policies')
    .addColumn('pid', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .addPrimaryKeyConstraint('captcha_policies_pk', ['pid', 'scene'])
    .execute();
};

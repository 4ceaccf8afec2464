import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Guardianship the family controls (services/edu/family/guardian-requests.ts):
 * - `guardian_requests`: a link with a child's guardian code while the child already has a guardian —
 *   who asked (`requester_id`, the relation they gave), when, when it is approved by itself if no
 *   guardian decides (`opens_at`), and the decision (`state`: pending, approved, refused; by whom, when,
 *   `how`: `guardian` or `waited`), and the pupil's school when a teacher opened the code (a letter or
 *   the login card: `via_school_id`, named to the guardians who decide). One row per child and
 *   requester: asking again reopens it;
 * - `guardians.export_from`: from when the guardian may take a copy of the child's data; null: at once
 *   (the guardian who consented, or one the family approved). Links made before this migration by
 *   someone who never consented wait the default seven days from their link.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await id(db.schema.createTable('guardian_requests'))
    .addColumn('child_id', 'bigint', (c) => c.notNull())
    .addColumn('requester_id', 'bigint', (c) => c.notNull())
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('asked_at', ms, (c) => c.notNull())
    .addColumn('opens_at', ms, (c) => c.notNull())
    .addColumn('decided_by', 'bigint')
    .addColumn('decided_at', ms)
    .addColumn('how', 'text')
    .addColumn('via_school_id', 'bigint')
    .execute();
  await db.schema
    .createIndex('guardian_requests_pair')
    .on('guardian_requests')
    .columns(['child_id', 'requester_id'])
    .unique()
    .execute();
  await db.schema.createIndex('guardian_requests_requester').on('guardian_requests').column('requester_id').execute();
  await db.schema.createIndex('guardian_requests_due').on('guardian_requests').columns(['state', 'opens_at']).execute();
  await db.schema.alterTable('guardians').addColumn('export_from', ms).execute();
  await sql`UPDATE guardians SET export_from = created_at + 604800000 WHERE NOT EXISTS (
    SELECT 1 FROM guardian_consents c
    WHERE c.child_id = guardians.child_id AND c.guardian_id = guardians.guardian_id AND c.decision = 'granted'
  )`.execute(db);
};

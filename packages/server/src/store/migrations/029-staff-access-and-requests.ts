import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Staff access asked for and logged, and data-rights requests tracked:
 * - `edu_access_log` says who read (`reader_role`: teacher or operator) and, for an operator's read
 *   of a minor, the reason given;
 * - `staff_access_approvals`: an operator asks to read one person's record, for a reason; another
 *   operator approves (until `expires_at`) or refuses (services/admin/staff-access.ts);
 * - `data_requests`: each export, correction, deletion or objection, with its due date, status and,
 *   where refused, the reason (services/account/data-requests.ts). A request outlives the account
 *   (the yearly report counts it), naming the person by number only.
 */
export const up = async (db: Kysely<unknown>, { id, ms }: MigrationContext): Promise<void> => {
  await db.schema
    .alterTable('edu_access_log')
    .addColumn('reader_role', 'text', (c) => c.notNull().defaultTo('teacher'))
    .execute();
  await db.schema.alterTable('edu_access_log').addColumn('reason', 'text').execute();
  await db.schema.createIndex('edu_access_log_created').on('edu_access_log').column('created_at').execute();

  await id(db.schema.createTable('staff_access_approvals'))
    .addColumn('requested_by', 'bigint', (c) => c.notNull())
    .addColumn('subject_id', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'bigint')
    .addColumn('decided_at', ms)
    .addColumn('expires_at', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('staff_access_approvals_subject')
    .on('staff_access_approvals')
    .columns(['subject_id', 'requested_by'])
    .execute();

  await id(db.schema.createTable('data_requests'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('refusal_reason', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('due_at', ms, (c) => c.notNull())
    .addColumn('closed_at', ms)
    .execute();
  await db.schema.createIndex('data_requests_user').on('data_requests').columns(['user_id', 'kind']).execute();
  await db.schema.createIndex('data_requests_created').on('data_requests').column('created_at').execute();
};

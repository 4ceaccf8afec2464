import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Staff identity controls (GB/T 22239-2019 level 3; services/passwords/staff-policy.ts,
 * services/sessions/idle.ts, protocol's operator-duties.ts):
 * - `users.operator_duties`: an operator's duties, comma-separated (`system`, `security`, `auditor`).
 *   Every existing operator gets `system,security` (what they could do before, less the audit log,
 *   which only an auditor reads: `edupass admin create <phone> --duties auditor` appoints one).
 * - `users.password_changed_at`: when the password was last set; the staff policy's change interval
 *   counts from it. Existing passwords count from this migration, so nobody is locked out by it.
 * - `password_history`: the hashes of a staff member's previous passwords, for "not one of the last N".
 * - `sessions.staff`: the session is a console or teaching one (signed in by staff), with an idle
 *   time-out; `sessions.last_active_at`: its last call, written at most once a minute.
 */
export const up = async (db: Kysely<unknown>, { id }: MigrationContext): Promise<void> => {
  await db.schema.alterTable('users').addColumn('operator_duties', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_changed_at', 'bigint').execute();
  await sql`UPDATE users SET operator_duties = 'system,security' WHERE role = 'operator'`.execute(db);
  await sql`UPDATE users SET password_changed_at = ${Date.now()} WHERE password_hash IS NOT NULL`.execute(db);
  await id(db.schema.createTable('password_history'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('password_history_user')
    .on('password_history')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('staff', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('sessions').addColumn('last_active_at', 'bigint').execute();
};

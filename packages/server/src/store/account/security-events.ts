/** Security events kept per account (migration 030; services/security/events.ts writes them). */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import type { SecurityEventsTable } from './data-rights-schema.ts';

export const insertSecurityEvent = (db: Kysely<Database>, row: Insertable<SecurityEventsTable>) =>
  db.insertInto('security_events').values(row).execute();

import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export const insertOutbox = (db: Db, row: Omit<Database['outbox'], 'id'>) =>
  db.insertInto('outbox').values(row).execute();

export const outboxFor = (db: Db, recipient: string, limit = 20) =>
  db
    .selectFrom('outbox')
    .select(['recipient', 'channel', 'text', 'code', 'sent_at'])
    .where('recipient', '=', recipient)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

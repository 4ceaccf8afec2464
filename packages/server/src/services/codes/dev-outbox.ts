/**
 * The dev outbox (the `outbox` table): what a delivery without a provider keeps, and what the
 * development route `/dev/outbox` reads back. The delivery adapter is handed the writer, so it never
 * reaches the store itself.
 */
import type { Kysely } from 'kysely';
import type { OutboxRow } from '../../adapters/delivery.ts';
import type { Context } from '../../context.ts';
import { insertOutbox, outboxFor } from '../../store/account/sent-messages.ts';
import type { Database } from '../../store/schema.ts';

/** The writer `outboxDelivery` keeps messages with. */
export const outboxWriter =
  (db: Kysely<Database>) =>
  async (row: OutboxRow): Promise<void> => {
    await insertOutbox(db, row);
  };

/** The messages sent to a phone or e-mail address (an address compared in lower case), newest first. */
export const outboxOf = (ctx: Context, to: string) => outboxFor(ctx.db, to.includes('@') ? to.toLowerCase() : to);

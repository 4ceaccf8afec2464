/** Single-use, short-lived tickets that carry a proven fact from one step to the next. */
import type { Context } from '../../context.ts';
import { findTicket, putTicket, setTicketData, useTicket } from '../../store/account/tickets.ts';
import { hmac, randomToken } from './hashing.ts';

export type TicketKind =
  | 'reset'
  | 'email_register'
  | 'common'
  | 'captcha'
  | 'oauth'
  | 'second_factor'
  | 'webauthn'
  | 'guardian_consent'
  | 'keep_account'
  | 'guardian_link';

export const issueTicket = async (
  ctx: Context,
  kind: TicketKind,
  subject: string,
  ttlSeconds: number,
  data: Record<string, unknown> = {},
  /** The ticket's value, when the caller has to know it beforehand (a WebAuthn challenge). */
  ticket = randomToken(24),
): Promise<string> => {
  await putTicket(ctx.db, {
    id_hash: hmac(ctx.keys.codes, ticket),
    kind,
    subject,
    data: JSON.stringify(data),
    expires_at: ctx.now() + ttlSeconds * 1000,
    used_at: null,
  });
  return ticket;
};

export interface TicketFacts {
  subject: string;
  data: Record<string, unknown>;
}

/** Spends a ticket: its facts for the one caller that spends it first, undefined otherwise. */
export const spendTicket = async (ctx: Context, kind: TicketKind, ticket: string): Promise<TicketFacts | undefined> => {
  const idHash = hmac(ctx.keys.codes, ticket);
  const now = ctx.now();
  const row = await findTicket(ctx.db, idHash, kind, now);
  if (!row || !(await useTicket(ctx.db, idHash, kind, now))) return undefined;
  return { subject: row.subject, data: JSON.parse(row.data) as Record<string, unknown> };
};

/** Reads a live ticket without spending it. */
export const peekTicket = async (ctx: Context, kind: TicketKind, ticket: string): Promise<TicketFacts | undefined> => {
  const row = await findTicket(ctx.db, hmac(ctx.keys.codes, ticket), kind, ctx.now());
  return row ? { subject: row.subject, data: JSON.parse(row.data) as Record<string, unknown> } : undefined;
};

/** Replaces the facts of a live ticket without spending it (e.g. the phone an oauth_ticket's code went to). */
export const updateTicket = (ctx: Context, kind: TicketKind, ticket: string, data: Record<string, unknown>) =>
  setTicketData(ctx.db, hmac(ctx.keys.codes, ticket), kind, JSON.stringify(data), ctx.now());

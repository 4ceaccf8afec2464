/**
 * Captcha tickets: what a passed check (or a no-risk rule) hands out and what the X-Captcha-Ticket
 * endpoints spend through captcha-gate.ts. Single-use, short-lived, bound to scene and identity.
 */
import type { Context } from '../../context.ts';
import { canonicalIdentity } from '../../email-address.ts';
import { issueTicket } from '../security/tickets.ts';

export interface TicketBinding {
  /** '' binds to no scene (a caller that did not say). */
  scene: string;
  /** '' binds to no identity (a caller that did not say). */
  identity: string;
}

export const normalizeScene = (scene: string | undefined) => (scene ?? '').trim().toLowerCase();
/** The identity a ticket is bound to: an e-mail in its one spelling (email-address.ts), as the sends take it. */
export const normalizeIdentity = (identity: string | undefined) => canonicalIdentity((identity ?? '').trim());

export const issueCaptchaTicket = (ctx: Context, binding: TicketBinding, provider: string): Promise<string> => {
  ctx.metrics.captchaPasses.inc({ provider });
  return issueTicket(ctx, 'captcha', binding.identity, ctx.config.captcha.ticketTtlSeconds, {
    scene: binding.scene,
    provider,
  });
};

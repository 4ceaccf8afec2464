/**
 * The check every X-Captcha-Ticket endpoint makes. A ticket from the captcha rule service is
 * single-use and bound to the scene and identity it was issued for.
 */
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { spendTicket } from './tickets.ts';

export interface CaptchaGateInput {
  ticket: string | undefined;
  scene: string;
  identity: string;
  /** Whether the call is refused without a ticket (login/security always is). */
  required: boolean;
}

export const checkCaptchaTicket = async (ctx: Context, { ticket, scene, identity, required }: CaptchaGateInput) => {
  if (!ticket) {
    if (required) fail('GCAP_1');
    return;
  }
  const facts = await spendTicket(ctx, 'captcha', ticket);
  if (!facts) return fail('GCAP_1');
  const boundScene = facts.data.scene;
  if (facts.subject !== '' && facts.subject !== identity) fail('GCAP_1');
  if (typeof boundScene === 'string' && boundScene !== '' && boundScene !== scene) fail('GCAP_1');
};

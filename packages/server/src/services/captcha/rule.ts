/**
 * The rule service (compatibility.md "Captcha rule"): which check a caller must pass, or a ticket
 * to use at once. Lenient with sloppy callers — no scene, a numeric pid, a timestamp in ms.
 */
import { type CaptchaRuleResponse, SLIDE_RULE } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { policyFor, providerFor } from './policy.ts';
import { assessRisk, countRuleRequest } from './risk.ts';
import { issueCaptchaTicket, normalizeIdentity, normalizeScene } from './tickets.ts';
import { isVendorName, vendorAppid } from './vendor-keys.ts';

export interface RuleInput {
  identity?: string | undefined;
  scene?: string | undefined;
  pid?: unknown;
  deviceId?: string | undefined;
  capabilities?: string[] | undefined;
}

export const decideRule = async (
  ctx: Context,
  input: RuleInput,
  ip: string,
): Promise<CaptchaRuleResponse & { reasons: string[] }> => {
  const identity = normalizeIdentity(input.identity);
  const scene = normalizeScene(input.scene);
  const pid = typeof input.pid === 'string' || typeof input.pid === 'number' ? String(input.pid) : '';
  const deviceId = (input.deviceId ?? '').slice(0, 256);
  const ruleRequests = await countRuleRequest(ctx, identity);
  const policy = await policyFor(ctx, pid, scene === '' ? '*' : scene);
  let challenge = policy === 'always';
  let reasons: string[] = [policy];
  if (policy === 'risk') {
    const verdict = await assessRisk(ctx, { identity, ip, deviceId, scene }, ruleRequests);
    challenge = verdict.risky;
    reasons = verdict.reasons;
  }
  if (!challenge) {
    // Proves nothing but the binding: the gates accept it only where no challenge is due.
    return {
      rule: 'DEFAULT',
      appid: '',
      ticket: await issueCaptchaTicket(ctx, { scene, identity }, 'DEFAULT'),
      reasons,
    };
  }
  let provider: string = await providerFor(ctx, pid);
  // Older clients treat an unknown rule as "use the ticket", so SLIDE goes only to clients that ask for
  // it; the others get the configured vendor, or a refusal they can show (never a ready ticket).
  if (provider === SLIDE_RULE && !(input.capabilities ?? []).includes(SLIDE_RULE)) {
    const fallback = ctx.config.captcha.fallbackRule;
    if (fallback === 'NONE') {
      return fail(
        '10017002',
        'A captcha is required, and this client cannot run the one offered. Update the client or ask the operator to configure a captcha vendor (CAPTCHA_FALLBACK_RULE).',
      );
    }
    provider = fallback;
  }
  const appid = provider === SLIDE_RULE || !isVendorName(provider) ? '' : await vendorAppid(ctx, provider);
  return { rule: provider, appid, ticket: '', reasons };
};

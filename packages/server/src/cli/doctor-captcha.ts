/**
 * `doctor`'s captcha check: each provider in effect — from CAPTCHA_PROVIDER, from operators' choices in
 * the console, and CAPTCHA_FALLBACK_RULE — with the keys in effect (console over environment).
 */
import { callVendor, VendorUnreachable } from '../adapters/captcha-vendors/http.ts';
import type { CaptchaProvider, VendorName } from '../config/captcha-config.ts';
import type { Context } from '../context.ts';
import { providerChoices } from '../services/captcha/policy.ts';
import { describeMissing, vendorFieldsInEffect } from '../services/captcha/vendor-keys.ts';
import type { Finding } from './doctor.ts';

const finding = (provider: CaptchaProvider, users: string[], ok: boolean, detail: string): Finding => ({
  check: 'captcha',
  ok,
  detail: `${provider} for ${users.join(', ')}: ${detail}`,
});

const checkVendor = async (ctx: Context, vendor: VendorName, users: string[]): Promise<Finding> => {
  const fields = await vendorFieldsInEffect(ctx, vendor);
  const problems: string[] = [];
  const missing = fields.filter((f) => f.value === undefined);
  if (missing.length > 0) {
    problems.push(
      `missing ${describeMissing(missing)}. Fix: enter them in the console (Captcha policy → Vendor keys) or set ${missing.map((f) => f.spec.env).join(', ')}.`,
    );
  }
  const unreadable = fields.filter((f) => f.unreadable);
  if (unreadable.length > 0) {
    problems.push(
      `${unreadable.map((f) => f.name).join(', ')} set in the console can no longer be read (the keyring was reset since). Fix: enter them again in the console, or clear them there to use ${unreadable.map((f) => f.spec.env).join(', ')}.`,
    );
  }
  if (problems.length > 0) return finding(vendor, users, false, problems.join(' '));
  const endpoint = fields.find((f) => f.spec.url);
  if (endpoint?.value === undefined) return finding(vendor, users, true, 'every key is set');
  const where = `${endpoint.name} ${endpoint.value} (${endpoint.source === 'console' ? 'console' : endpoint.spec.env})`;
  try {
    const answer = await callVendor(vendor, endpoint.value, { method: 'GET' }, ctx.config.captcha.vendorTimeoutMs);
    return finding(
      vendor,
      users,
      true,
      `every key is set; ${where} answers (HTTP ${answer.status}); the keys are tried with the first result`,
    );
  } catch (error) {
    if (!(error instanceof VendorUnreachable)) throw error;
    return finding(
      vendor,
      users,
      false,
      `its verify endpoint ${where} could not be reached. Fix: check ${endpoint.spec.env} (or ${endpoint.name} in the console), that this server may connect out to it, and CAPTCHA_VENDOR_TIMEOUT.`,
    );
  }
};

export const checkCaptcha = async (ctx: Context): Promise<Finding[]> => {
  const users = new Map<CaptchaProvider, string[]>();
  const use = (provider: CaptchaProvider, user: string) => users.set(provider, [...(users.get(provider) ?? []), user]);
  for (const choice of await providerChoices(ctx)) use(choice.effective, choice.pid);
  const fallback = ctx.config.captcha.fallbackRule;
  if (fallback !== 'NONE') use(fallback, 'clients without SLIDE (CAPTCHA_FALLBACK_RULE)');
  return Promise.all(
    [...users].map(([provider, pids]) =>
      provider === 'SLIDE'
        ? finding(provider, pids, true, 'first-party slide puzzle (offline)')
        : checkVendor(ctx, provider, pids),
    ),
  );
};

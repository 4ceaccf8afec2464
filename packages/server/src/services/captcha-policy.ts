/** Which policy and which provider apply to a product and scene: operator settings first, then configuration. */
import type { CaptchaPolicy, CaptchaProvider } from '../captcha-config.ts';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { deletePolicy, findPolicies, listPolicies, putPolicy } from '../store/captcha.ts';

const POLICIES: readonly string[] = ['never', 'always', 'risk'];
export const isCaptchaPolicy = (value: unknown): value is CaptchaPolicy =>
  typeof value === 'string' && POLICIES.includes(value);

/** Most specific first: pid:scene, pid:*, *:scene, *:*. */
const candidates = (pid: string, scene: string) => [`${pid}:${scene}`, `${pid}:*`, `*:${scene}`, '*:*'];

export const policyFor = async (ctx: Context, pid: string, scene: string): Promise<CaptchaPolicy> => {
  const rows = await findPolicies(ctx.db, pid, scene);
  const stored = new Map(rows.map((row) => [`${row.pid}:${row.scene}`, row.policy]));
  for (const key of candidates(pid, scene)) {
    const policy = stored.get(key) ?? ctx.config.captcha.policies[key];
    if (isCaptchaPolicy(policy)) return policy;
  }
  // A fresh install decides by risk: a first attempt passes, a suspicious one is challenged.
  return 'risk';
};

export const providerFor = (ctx: Context, pid: string): CaptchaProvider =>
  ctx.config.captcha.providers[pid] ?? ctx.config.captcha.providers['*'] ?? 'SLIDE';

export const listCaptchaPolicies = (ctx: Context) => listPolicies(ctx.db);

export const setCaptchaPolicy = async (ctx: Context, pid: string, scene: string, policy: unknown) => {
  if (!isCaptchaPolicy(policy)) throw invalidRequest('The policy must be never, always or risk.');
  await putPolicy(ctx.db, { pid, scene: scene.toLowerCase(), policy, updated_at: ctx.now() });
};

export const clearCaptchaPolicy = (ctx: Context, pid: string, scene: string) =>
  deletePolicy(ctx.db, pid, scene.toLowerCase());

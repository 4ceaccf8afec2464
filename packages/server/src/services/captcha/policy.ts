/** Which policy and which provider apply to a product and scene: operator settings first, then configuration. */
import type { CaptchaProviderChoice } from '@edupass/protocol';
import {
  CAPTCHA_PROVIDERS,
  type CaptchaPolicy,
  type CaptchaProvider,
  isCaptchaPolicy,
  isProvider,
} from '../../config/captcha-config.ts';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { allProducts } from '../../store/admin/products.ts';
import {
  deletePoliciesOf,
  deletePolicy,
  deleteProvider,
  findPolicies,
  findProviders,
  listPolicies,
  listProviders,
  putPolicy,
  putProvider,
} from '../../store/captcha/captcha.ts';
import { describeMissing, vendorFieldsInEffect } from './vendor-keys.ts';

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

/**
 * Most specific first, and for the same product the operator's choice over configuration: the pid's
 * stored, the pid's configured, `*` stored, `*` configured, then SLIDE. So an operator's `*` changes
 * every product without a provider of its own, and a product configured on its own keeps it.
 */
const pickProvider = (ctx: Context, pid: string, stored: Map<string, string>): CaptchaProvider => {
  for (const key of new Set([pid, '*'])) {
    for (const provider of [stored.get(key), ctx.config.captcha.providers[key]]) {
      if (isProvider(provider)) return provider;
    }
  }
  return 'SLIDE';
};

const storedProviders = (rows: { pid: string; provider: string }[]) =>
  new Map(rows.map((row) => [row.pid, row.provider]));

export const providerFor = async (ctx: Context, pid: string): Promise<CaptchaProvider> =>
  pickProvider(ctx, pid, storedProviders(await findProviders(ctx.db, pid)));

/** `*`, every known product and every product with a provider of its own: the choices and what applies. */
export const providerChoices = async (ctx: Context): Promise<CaptchaProviderChoice[]> => {
  const stored = storedProviders(await listProviders(ctx.db));
  const configured = ctx.config.captcha.providers;
  const products = (await allProducts(ctx.db)).map((row) => row.pid);
  const pids = [...new Set([...products, ...stored.keys(), ...Object.keys(configured)])].filter((p) => p !== '*');
  return ['*', ...pids.sort()].map((pid) => {
    const operator = stored.get(pid);
    const fromConfig = configured[pid];
    return {
      pid,
      operator: isProvider(operator) ? operator : null,
      configured: isProvider(fromConfig) ? fromConfig : null,
      effective: pickProvider(ctx, pid, stored),
    };
  });
};

/** A vendor is chosen only with every key it needs set, so the rule service never hands out a dead widget. */
export const setCaptchaProvider = async (ctx: Context, pid: string, provider: string) => {
  const name = provider.trim().toUpperCase();
  if (!isProvider(name)) throw invalidRequest(`The provider must be one of ${CAPTCHA_PROVIDERS.join(', ')}.`);
  if (name !== 'SLIDE') {
    const missing = (await vendorFieldsInEffect(ctx, name)).filter((f) => f.value === undefined);
    if (missing.length > 0) {
      throw invalidRequest(`${name} cannot be chosen until its keys are set; missing: ${describeMissing(missing)}.`);
    }
  }
  await putProvider(ctx.db, { pid, provider: name, updated_at: ctx.now() });
  return name;
};

export const clearCaptchaProvider = (ctx: Context, pid: string) => deleteProvider(ctx.db, pid);

export const listCaptchaPolicies = (ctx: Context) => listPolicies(ctx.db);

export const setCaptchaPolicy = async (ctx: Context, pid: string, scene: string, policy: unknown) => {
  if (!isCaptchaPolicy(policy)) throw invalidRequest('The policy must be never, always or risk.');
  await putPolicy(ctx.db, { pid, scene: scene.toLowerCase(), policy, updated_at: ctx.now() });
};

export const clearCaptchaPolicy = (ctx: Context, pid: string, scene: string) =>
  deletePolicy(ctx.db, pid, scene.toLowerCase());

/**
 * The operator's way back in (`edupass captcha policy reset <pid>`): removes every policy the console
 * stored for the product (`*`: the ones for every product), so configuration or the default, risk,
 * decides again. Answers the removed rows and the login policy now in effect.
 */
export const resetCaptchaPolicies = async (ctx: Context, pid: string) => {
  const removed = await deletePoliciesOf(ctx.db, pid);
  return { removed, loginPolicy: await policyFor(ctx, pid === '*' ? '' : pid, 'login') };
};

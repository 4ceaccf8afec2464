/**
 * The console's view and control of captcha: operator policies per product and scene, providers per
 * product and vendor keys, each over the configured ones. Every change is recorded in the audit log
 * with the operator; secrets are write-only, and the log names the fields set, never their values.
 */
import type { CaptchaRiskThresholds, CaptchaSettings } from '@edupass/protocol';
import { type CaptchaConfig, isCaptchaPolicy } from '../../config/captcha-config.ts';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { audit } from '../admin/operations.ts';
import {
  clearCaptchaPolicy,
  clearCaptchaProvider,
  listCaptchaPolicies,
  providerChoices,
  setCaptchaPolicy,
  setCaptchaProvider,
} from './policy.ts';
import { putVendorFields, removeVendorFields, vendorStates } from './vendor-keys.ts';

export const captchaSettings = async (ctx: Context): Promise<CaptchaSettings> => ({
  policies: (await listCaptchaPolicies(ctx)).flatMap((row) =>
    isCaptchaPolicy(row.policy) ? [{ pid: row.pid, scene: row.scene, policy: row.policy }] : [],
  ),
  configured: Object.fromEntries(Object.entries(ctx.config.captcha.policies).filter(([, p]) => isCaptchaPolicy(p))),
  providers: await providerChoices(ctx),
  vendors: await vendorStates(ctx),
  risk: riskThresholds(ctx.config.captcha),
});

const riskThresholds = (c: CaptchaConfig): CaptchaRiskThresholds => ({
  windowSeconds: c.riskWindowSeconds,
  identityFailures: c.riskFailures,
  loginAttempts: c.riskLoginFailures,
  ipFailures: c.riskIpFailures,
  ipLoginFailures: c.riskIpLoginFailures,
  ipSends: c.riskIpSends,
  ruleRequests: c.riskRuleRequests,
  fallbackRule: c.fallbackRule,
});

const KEY = /^(\*|[A-Za-z0-9_.-]{1,64})$/;
const checkKey = (...keys: string[]) => {
  if (!keys.every((key) => KEY.test(key))) {
    throw invalidRequest('pid and scene are letters, digits, . _ - or * (any).');
  }
};

export const changeCaptchaPolicy = async (
  ctx: Context,
  operatorId: number,
  input: { pid: string; scene: string; policy: string },
) => {
  checkKey(input.pid, input.scene);
  await setCaptchaPolicy(ctx, input.pid, input.scene, input.policy);
  await audit(ctx, operatorId, 'captcha.policy.set', `captcha:${input.pid}:${input.scene.toLowerCase()}`, input.policy);
};

export const removeCaptchaPolicy = async (ctx: Context, operatorId: number, input: { pid: string; scene: string }) => {
  checkKey(input.pid, input.scene);
  await clearCaptchaPolicy(ctx, input.pid, input.scene);
  await audit(ctx, operatorId, 'captcha.policy.clear', `captcha:${input.pid}:${input.scene.toLowerCase()}`);
};

export const changeCaptchaProvider = async (
  ctx: Context,
  operatorId: number,
  input: { pid: string; provider: string },
) => {
  checkKey(input.pid);
  const provider = await setCaptchaProvider(ctx, input.pid, input.provider);
  await audit(ctx, operatorId, 'captcha.provider.set', `captcha:${input.pid}`, provider);
};

export const removeCaptchaProvider = async (ctx: Context, operatorId: number, input: { pid: string }) => {
  checkKey(input.pid);
  await clearCaptchaProvider(ctx, input.pid);
  await audit(ctx, operatorId, 'captcha.provider.clear', `captcha:${input.pid}`);
};

export const changeVendorKeys = async (
  ctx: Context,
  operatorId: number,
  input: { vendor: string; values: unknown; custom_endpoint?: boolean | undefined },
) => {
  const { vendor, fields, endpoints } = await putVendorFields(ctx, { ...input, customEndpoint: input.custom_endpoint });
  // The names of the fields set, and the endpoints' new values (not secrets: they say where keys go).
  const detail = [fields.join(', '), ...endpoints].join('; ');
  await audit(ctx, operatorId, 'captcha.vendor.set', `captcha-vendor:${vendor}`, detail);
};

export const removeVendorKeys = async (
  ctx: Context,
  operatorId: number,
  input: { vendor: string; fields?: string[] | undefined },
) => {
  const { vendor, fields } = await removeVendorFields(ctx, input);
  await audit(ctx, operatorId, 'captcha.vendor.clear', `captcha-vendor:${vendor}`, fields.join(', '));
};

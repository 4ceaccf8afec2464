/**
 * The console's view and control of captcha: operator policies per product and scene over the
 * configured ones, providers, and which vendor keys are set. Secrets are write-only (configuration);
 * answers say whether each is set, never its value.
 */
import {
  CAPTCHA_POLICIES,
  type CaptchaPolicyName,
  type CaptchaSettings,
  type CaptchaVendorState,
} from '@edupass/protocol';
import type { CaptchaConfig } from '../captcha-config.ts';
import type { Context } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import { recordAudit } from '../store/admin.ts';
import { clearCaptchaPolicy, listCaptchaPolicies, setCaptchaPolicy } from './captcha-policy.ts';

const isPolicy = (value: string): value is CaptchaPolicyName => (CAPTCHA_POLICIES as readonly string[]).includes(value);

const vendor = (
  name: CaptchaVendorState['name'],
  values: object | undefined,
  publicKeys: string[],
  secretKeys: string[],
): CaptchaVendorState => {
  const fields = (values ?? {}) as Record<string, string | undefined>;
  return {
    name,
    configured: values !== undefined,
    public: Object.fromEntries(publicKeys.flatMap((key) => (fields[key] ? [[key, fields[key]]] : []))),
    secrets: Object.fromEntries(secretKeys.map((key) => [key, Boolean(fields[key])])),
  };
};

const vendorStates = (c: CaptchaConfig): CaptchaVendorState[] => [
  vendor('GEETEST', c.geetest, ['id', 'apiUrl'], ['key']),
  vendor('TENCENT', c.tencent, ['appId', 'endpoint'], ['appSecretKey', 'secretId', 'secretKey']),
  vendor('NETEASE', c.netease, ['captchaId', 'endpoint'], ['secretId', 'secretKey']),
  vendor('NEXTDATA', c.nextdata, ['organization', 'appId', 'endpoint'], ['accessKey']),
  vendor('ALIYUN', c.aliyun, ['prefix', 'sceneId', 'endpoint'], ['accessKeyId', 'accessKeySecret']),
];

export const captchaSettings = async (ctx: Context): Promise<CaptchaSettings> => ({
  policies: (await listCaptchaPolicies(ctx)).flatMap((row) =>
    isPolicy(row.policy) ? [{ pid: row.pid, scene: row.scene, policy: row.policy }] : [],
  ),
  configured: Object.fromEntries(Object.entries(ctx.config.captcha.policies).filter(([, p]) => isPolicy(p))),
  providers: { ...ctx.config.captcha.providers },
  vendors: vendorStates(ctx.config.captcha),
});

const KEY = /^(\*|[A-Za-z0-9_.-]{1,64})$/;
const checkKey = (pid: string, scene: string) => {
  if (!KEY.test(pid) || !KEY.test(scene)) {
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
  await recordAudit(ctx.db, {
    operator_id: operatorId,
    action: 'captcha.policy.set',
    target: `captcha:${input.pid}:${input.scene.toLowerCase()}`,
    detail: input.policy,
    at: ctx.now(),
  });
};

export const removeCaptchaPolicy = async (ctx: Context, operatorId: number, input: { pid: string; scene: string }) => {
  checkKey(input.pid, input.scene);
  await clearCaptchaPolicy(ctx, input.pid, input.scene);
  await recordAudit(ctx.db, {
    operator_id: operatorId,
    action: 'captcha.policy.clear',
    target: `captcha:${input.pid}:${input.scene.toLowerCase()}`,
    detail: '',
    at: ctx.now(),
  });
};

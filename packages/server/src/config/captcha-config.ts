/**
 * The human-verification part of the configuration, read by `loadConfig` (config.ts) with the same
 * rules: every variable documented here, every bad value reported with its fix.
 *
 * CAPTCHA_POLICY      policy per product and scene: `risk` (default), `always` or `never`, either one
 *                     word for everything or `pid:scene=policy` entries, `*` matching any, e.g.
 *                     `*:*=risk,edupass:login=always`.
 * CAPTCHA_PROVIDER    the challenge to give: SLIDE (default, EduPass's own, works offline), GEETEST,
 *                     TENCENT, NETEASE, NEXTDATA or ALIYUN; or `pid=PROVIDER` entries with `*`.
 *                     Operators may choose one per product in the console (services/captcha/policy.ts).
 * CAPTCHA_FALLBACK_RULE  the challenge for clients that cannot run SLIDE (they do not announce it):
 *                     NONE (the default: such a client is refused with 10017002 when a challenge is
 *                     due) or a vendor whose keys are set. Never a ready ticket: that would make the
 *                     challenge decoration. `DEFAULT` is read as NONE (its old meaning was a ticket).
 * CAPTCHA_TICKET_TTL, CAPTCHA_CHALLENGE_TTL  seconds (300, 120).
 * CAPTCHA_RISK_WINDOW seconds failures and volumes are remembered (3600).
 * Thresholds of the `risk` policy (services/captcha/risk.ts). A whole school often shares one NAT
 * address, so the per-IP ones are sized for a classroom of 40 each using its own allowance (40 × 3);
 * what one account, phone, identity or device does weighs more.
 * CAPTCHA_RISK_FAILURES  failed captcha checks of one identity or device before challenges start (1).
 * CAPTCHA_RISK_LOGIN_FAILURES  password sign-ins of one account without a passed challenge, since its
 *                     last success, before challenges start (3: three typos are no challenge).
 * CAPTCHA_RISK_IP_FAILURES  failed captcha checks from one IP before challenges start (120).
 * CAPTCHA_RISK_IP_LOGIN_FAILURES  wrong passwords from one IP before challenges start (120: a
 *                     classroom's typos pass, a spray across many accounts meets the puzzle).
 * CAPTCHA_RISK_IP_SENDS  code sends and new third-party accounts from one IP without a passed
 *                     challenge before challenges start (120; CODE_IP_HOURLY_LIMIT stays the ceiling).
 * CAPTCHA_RISK_IP_REFUSALS  code sends from one IP refused because the phone or address is not
 *                     registered (or already is) before challenges start (20: a classroom's typos
 *                     pass, a walk through the numbers meets the puzzle).
 * CAPTCHA_RISK_PHONE_SENDS  code sends to one phone or e-mail address without a passed challenge
 *                     before challenges start (3: the SMS-pumping defence that spares a classroom).
 * CAPTCHA_RISK_RULE_REQUESTS  rule requests for one identity within the window before challenges start
 *                     (30: a person's ten password tries up to the lock and a few code sends stay under it).
 * CAPTCHA_SLIDE_TOLERANCE  pixels a slide answer may miss by (4).
 * CAPTCHA_SLIDE_IP_PER_MINUTE  slide puzzles one IP may draw per minute (120: drawing costs CPU, and a
 *                     classroom behind one address may all be asked at once under `always`).
 * CAPTCHA_ALLOW_VENDOR_FALLBACK  accept vendors' fallback results (Geetest offline mode, Tencent
 *                     terror_ tickets, NetEase fallback validates) — false by default.
 * CAPTCHA_VENDOR_TIMEOUT  ms for a vendor verify call (5000).
 * GEETEST_ID, GEETEST_KEY, GEETEST_API_URL (http://api.geetest.com)
 * TENCENT_CAPTCHA_APP_ID, TENCENT_CAPTCHA_APP_SECRET_KEY, TENCENTCLOUD_SECRET_ID,
 *   TENCENTCLOUD_SECRET_KEY, TENCENT_CAPTCHA_ENDPOINT (https://captcha.tencentcloudapi.com)
 * NETEASE_CAPTCHA_ID, NETEASE_SECRET_ID, NETEASE_SECRET_KEY, NETEASE_CAPTCHA_ENDPOINT
 *   (https://c.dun.163.com/api/v2/verify)
 * NEXTDATA_ORGANIZATION, NEXTDATA_ACCESS_KEY, NEXTDATA_APP_ID (default),
 *   NEXTDATA_CAPTCHA_ENDPOINT (http://captcha.fengkongcloud.com/ca/v1/fverify)
 * ALIYUN_CAPTCHA_PREFIX, ALIYUN_CAPTCHA_SCENE_ID, ALIYUN_ACCESS_KEY_ID, ALIYUN_ACCESS_KEY_SECRET,
 *   ALIYUN_CAPTCHA_ENDPOINT (https://captcha.cn-shanghai.aliyuncs.com)
 * Vendor fields set in the console override these one by one (services/captcha/vendor-keys.ts).
 */

import {
  CAPTCHA_POLICIES,
  CAPTCHA_PROVIDERS,
  type CaptchaPolicyName,
  type CaptchaProviderName,
  type CaptchaVendorName,
} from '@edupass/protocol';
import { type Env, readers } from './readers.ts';

export { CAPTCHA_PROVIDERS };
export type CaptchaPolicy = CaptchaPolicyName;
export type CaptchaProvider = CaptchaProviderName;
export type VendorName = CaptchaVendorName;

export interface GeetestConfig {
  id: string;
  key: string;
  apiUrl: string;
}
export interface TencentConfig {
  appId: string;
  appSecretKey: string;
  secretId: string;
  secretKey: string;
  endpoint: string;
}
export interface NeteaseConfig {
  captchaId: string;
  secretId: string;
  secretKey: string;
  endpoint: string;
}
export interface NextdataConfig {
  organization: string;
  accessKey: string;
  appId: string;
  endpoint: string;
}
export interface AliyunConfig {
  prefix: string;
  sceneId: string;
  accessKeyId: string;
  accessKeySecret: string;
  endpoint: string;
}

export interface VendorConfigs {
  GEETEST: GeetestConfig;
  TENCENT: TencentConfig;
  NETEASE: NeteaseConfig;
  NEXTDATA: NextdataConfig;
  ALIYUN: AliyunConfig;
}

export interface VendorField {
  /** The environment variable that sets it. */
  env: string;
  /** Write-only: answers say whether it is set, never its value. */
  secret?: true;
  /** What applies when nothing sets it; a field with a default is not a key. */
  default?: string;
  /** Must be an http or https URL. */
  url?: true;
}

/** Every vendor's settings, once: the environment, the console and the answers read this list. */
export const VENDOR_FIELDS = {
  GEETEST: {
    id: { env: 'GEETEST_ID' },
    key: { env: 'GEETEST_KEY', secret: true },
    apiUrl: { env: 'GEETEST_API_URL', default: 'http://api.geetest.com', url: true },
  },
  TENCENT: {
    appId: { env: 'TENCENT_CAPTCHA_APP_ID' },
    appSecretKey: { env: 'TENCENT_CAPTCHA_APP_SECRET_KEY', secret: true },
    secretId: { env: 'TENCENTCLOUD_SECRET_ID', secret: true },
    secretKey: { env: 'TENCENTCLOUD_SECRET_KEY', secret: true },
    endpoint: { env: 'TENCENT_CAPTCHA_ENDPOINT', default: 'https://captcha.tencentcloudapi.com', url: true },
  },
  NETEASE: {
    captchaId: { env: 'NETEASE_CAPTCHA_ID' },
    secretId: { env: 'NETEASE_SECRET_ID', secret: true },
    secretKey: { env: 'NETEASE_SECRET_KEY', secret: true },
    endpoint: { env: 'NETEASE_CAPTCHA_ENDPOINT', default: 'https://c.dun.163.com/api/v2/verify', url: true },
  },
  NEXTDATA: {
    organization: { env: 'NEXTDATA_ORGANIZATION' },
    accessKey: { env: 'NEXTDATA_ACCESS_KEY', secret: true },
    appId: { env: 'NEXTDATA_APP_ID', default: 'default' },
    endpoint: {
      env: 'NEXTDATA_CAPTCHA_ENDPOINT',
      default: 'http://captcha.fengkongcloud.com/ca/v1/fverify',
      url: true,
    },
  },
  ALIYUN: {
    prefix: { env: 'ALIYUN_CAPTCHA_PREFIX' },
    sceneId: { env: 'ALIYUN_CAPTCHA_SCENE_ID' },
    accessKeyId: { env: 'ALIYUN_ACCESS_KEY_ID', secret: true },
    accessKeySecret: { env: 'ALIYUN_ACCESS_KEY_SECRET', secret: true },
    endpoint: { env: 'ALIYUN_CAPTCHA_ENDPOINT', default: 'https://captcha.cn-shanghai.aliyuncs.com', url: true },
  },
} as const satisfies { [V in VendorName]: Record<keyof VendorConfigs[V], VendorField> };

export const VENDOR_NAMES = Object.keys(VENDOR_FIELDS) as VendorName[];

/** A vendor's fields as a list, in the catalogue's order. */
export const vendorFields = (vendor: VendorName): [name: string, field: VendorField][] =>
  Object.entries(VENDOR_FIELDS[vendor]);

/** The vendor's settings from the environment: complete, or undefined. */
export const configuredVendor = <V extends VendorName>(c: CaptchaConfig, vendor: V): VendorConfigs[V] | undefined =>
  c[vendor.toLowerCase() as Lowercase<VendorName>] as VendorConfigs[V] | undefined;

export interface CaptchaConfig {
  /** `pid:scene` (either may be `*`) → policy. */
  policies: Record<string, CaptchaPolicy>;
  /** pid (or `*`) → provider. */
  providers: Record<string, CaptchaProvider>;
  /** NONE: clients without SLIDE are refused when a challenge is due. */
  fallbackRule: 'NONE' | VendorName;
  ticketTtlSeconds: number;
  challengeTtlSeconds: number;
  riskWindowSeconds: number;
  riskFailures: number;
  riskLoginFailures: number;
  riskIpFailures: number;
  riskIpLoginFailures: number;
  riskIpSends: number;
  riskIpRefusals: number;
  riskPhoneSends: number;
  riskRuleRequests: number;
  slideTolerance: number;
  slideIpPerMinute: number;
  allowVendorFallback: boolean;
  vendorTimeoutMs: number;
  geetest: GeetestConfig | undefined;
  tencent: TencentConfig | undefined;
  netease: NeteaseConfig | undefined;
  nextdata: NextdataConfig | undefined;
  aliyun: AliyunConfig | undefined;
  /**
   * Vendor fields the environment sets, also those that alone configure nothing (an endpoint), so
   * keys entered in the console combine with them.
   */
  vendorEnvironment: Partial<Record<VendorName, Record<string, string>>>;
}

export const isHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value);

export const isCaptchaPolicy = (value: unknown): value is CaptchaPolicy =>
  typeof value === 'string' && (CAPTCHA_POLICIES as readonly string[]).includes(value);
export const isProvider = (value: unknown): value is CaptchaProvider =>
  typeof value === 'string' && (CAPTCHA_PROVIDERS as readonly string[]).includes(value);

export const readCaptchaConfig = (env: Env, problems: string[]): CaptchaConfig => {
  const read = readers(env, problems);
  const { int } = read;
  // Keys and lists are pasted from vendors' consoles: surrounding spaces are not part of them.
  const str = (name: string) => read.str(name)?.trim() || undefined;

  const policies: Record<string, CaptchaPolicy> = {};
  const policyRaw = str('CAPTCHA_POLICY') ?? 'risk';
  for (const entry of policyRaw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [key, value] = entry.includes('=') ? entry.split('=', 2) : ['*:*', entry];
    const policy = value?.trim().toLowerCase() ?? '';
    const [pid, scene, ...rest] = (key ?? '').trim().split(':');
    if (!isCaptchaPolicy(policy) || !pid || !scene || rest.length > 0) {
      problems.push(
        `CAPTCHA_POLICY entry "${entry}" must be risk, always, never or pid:scene=policy. Fix: e.g. CAPTCHA_POLICY=*:*=risk,edupass:login=always`,
      );
      continue;
    }
    policies[`${pid}:${scene.toLowerCase()}`] = policy;
  }

  const providers: Record<string, CaptchaProvider> = {};
  for (const entry of (str('CAPTCHA_PROVIDER') ?? 'SLIDE')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [pid, value] = entry.includes('=') ? entry.split('=', 2) : ['*', entry];
    const provider = value?.trim().toUpperCase() ?? '';
    if (!pid || !isProvider(provider)) {
      problems.push(
        `CAPTCHA_PROVIDER entry "${entry}" must be one of ${CAPTCHA_PROVIDERS.join(', ')} or pid=PROVIDER. Fix: e.g. CAPTCHA_PROVIDER=SLIDE`,
      );
      continue;
    }
    providers[pid.trim()] = provider;
  }
  providers['*'] ??= 'SLIDE';

  const fallbackRaw = (str('CAPTCHA_FALLBACK_RULE') ?? 'NONE').toUpperCase();
  let fallbackRule: CaptchaConfig['fallbackRule'] = 'NONE';
  if (isProvider(fallbackRaw) && fallbackRaw !== 'SLIDE') fallbackRule = fallbackRaw;
  else if (fallbackRaw !== 'NONE' && fallbackRaw !== 'DEFAULT')
    problems.push(`CAPTCHA_FALLBACK_RULE="${fallbackRaw}" must be NONE or a vendor. Fix: CAPTCHA_FALLBACK_RULE=NONE`);

  const allowRaw = (str('CAPTCHA_ALLOW_VENDOR_FALLBACK') ?? 'false').toLowerCase();
  if (!['1', 'true', 'yes', '0', 'false', 'no'].includes(allowRaw)) {
    problems.push(`CAPTCHA_ALLOW_VENDOR_FALLBACK="${allowRaw}" must be true or false. Fix: unset it.`);
  }

  /** A vendor is configured when all its keys are set; half a configuration is an error, not a silent skip. */
  const vendorEnvironment: CaptchaConfig['vendorEnvironment'] = {};
  const group = <V extends VendorName>(vendor: V): VendorConfigs[V] | undefined => {
    const entries = vendorFields(vendor);
    const values: Record<string, string | undefined> = {};
    const fromEnvironment: Record<string, string> = {};
    for (const [field, spec] of entries) {
      const raw = str(spec.env);
      if (raw !== undefined && spec.url && !isHttpUrl(raw)) {
        problems.push(`${spec.env}="${raw}" must be an http or https URL. Fix: e.g. ${spec.env}=${spec.default}`);
      }
      if (raw !== undefined) fromEnvironment[field] = raw;
      values[field] = raw ?? spec.default;
    }
    if (Object.keys(fromEnvironment).length > 0) vendorEnvironment[vendor] = fromEnvironment;
    // Endpoints alone (e.g. pointed at a test peer) do not configure a vendor; its keys do.
    const given = entries.filter(([, spec]) => str(spec.env) !== undefined && spec.default === undefined);
    if (given.length === 0) return undefined;
    const missing = entries.filter(([field]) => values[field] === undefined);
    if (missing.length > 0) {
      problems.push(
        `${missing.map(([, spec]) => spec.env).join(', ')} must be set together with ${given.map(([, spec]) => spec.env).join(', ')}.`,
      );
      return undefined;
    }
    return values as unknown as VendorConfigs[V];
  };

  const geetest = group('GEETEST');
  const tencent = group('TENCENT');
  const netease = group('NETEASE');
  const nextdata = group('NEXTDATA');
  const aliyun = group('ALIYUN');

  const config: CaptchaConfig = {
    policies,
    providers,
    fallbackRule,
    ticketTtlSeconds: int('CAPTCHA_TICKET_TTL', 300, 10, 3600),
    challengeTtlSeconds: int('CAPTCHA_CHALLENGE_TTL', 120, 10, 3600),
    riskWindowSeconds: int('CAPTCHA_RISK_WINDOW', 3600, 60, 7 * 86_400),
    riskFailures: int('CAPTCHA_RISK_FAILURES', 1, 1, 1000),
    riskLoginFailures: int('CAPTCHA_RISK_LOGIN_FAILURES', 3, 1, 1000),
    riskIpFailures: int('CAPTCHA_RISK_IP_FAILURES', 120, 1, 100_000),
    riskIpLoginFailures: int('CAPTCHA_RISK_IP_LOGIN_FAILURES', 120, 1, 100_000),
    riskIpSends: int('CAPTCHA_RISK_IP_SENDS', 120, 1, 100_000),
    riskIpRefusals: int('CAPTCHA_RISK_IP_REFUSALS', 20, 1, 100_000),
    riskPhoneSends: int('CAPTCHA_RISK_PHONE_SENDS', 3, 1, 1000),
    riskRuleRequests: int('CAPTCHA_RISK_RULE_REQUESTS', 30, 1, 100_000),
    slideTolerance: int('CAPTCHA_SLIDE_TOLERANCE', 4, 1, 20),
    slideIpPerMinute: int('CAPTCHA_SLIDE_IP_PER_MINUTE', 120, 1, 100_000),
    allowVendorFallback: ['1', 'true', 'yes'].includes(allowRaw),
    vendorTimeoutMs: int('CAPTCHA_VENDOR_TIMEOUT', 5000, 100, 60_000),
    geetest,
    tencent,
    netease,
    nextdata,
    aliyun,
    vendorEnvironment,
  };
  const vendorConfigured: Record<VendorName, unknown> = {
    GEETEST: geetest,
    TENCENT: tencent,
    NETEASE: netease,
    NEXTDATA: nextdata,
    ALIYUN: aliyun,
  };
  for (const [pid, provider] of Object.entries(providers)) {
    if (provider !== 'SLIDE' && vendorConfigured[provider] === undefined) {
      problems.push(
        `CAPTCHA_PROVIDER names ${provider} for ${pid} but its keys are not set. Fix: set them or use SLIDE.`,
      );
    }
  }
  if (fallbackRule !== 'NONE' && vendorConfigured[fallbackRule] === undefined) {
    problems.push(`CAPTCHA_FALLBACK_RULE names ${fallbackRule} but its keys are not set. Fix: set them or use NONE.`);
  }
  return config;
};

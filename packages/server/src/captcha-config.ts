/**
 * The human-verification part of the configuration, read by `loadConfig` (config.ts) with the same
 * rules: every variable documented here, every bad value reported with its fix.
 *
 * CAPTCHA_POLICY      policy per product and scene: `risk` (default), `always` or `never`, either one
 *                     word for everything or `pid:scene=policy` entries, `*` matching any, e.g.
 *                     `*:*=risk,edupass:login=always`.
 * CAPTCHA_PROVIDER    the challenge to give: SLIDE (default, EduPass's own, works offline), GEETEST,
 *                     TENCENT, NETEASE, NEXTDATA or ALIYUN; or `pid=PROVIDER` entries with `*`.
 * CAPTCHA_FALLBACK_RULE  what clients that cannot run SLIDE get instead: DEFAULT (a ticket, the
 *                     default) or a vendor.
 * CAPTCHA_TICKET_TTL, CAPTCHA_CHALLENGE_TTL  seconds (300, 120).
 * CAPTCHA_RISK_WINDOW seconds failures and volumes are remembered (3600).
 * CAPTCHA_RISK_FAILURES  failed checks of one identity or device before challenges start (1).
 * CAPTCHA_RISK_IP_FAILURES  failed checks from one IP before challenges start (3).
 * CAPTCHA_RISK_IP_SENDS  code sends from one IP per hour before challenges start (10).
 * CAPTCHA_RISK_RULE_REQUESTS  rule requests for one identity within the window before challenges start (5).
 * CAPTCHA_SLIDE_TOLERANCE  pixels a slide answer may miss by (4).
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
 */

export type CaptchaPolicy = 'never' | 'always' | 'risk';
export const CAPTCHA_PROVIDERS = ['SLIDE', 'GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];
export type VendorName = Exclude<CaptchaProvider, 'SLIDE'>;

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

export interface CaptchaConfig {
  /** `pid:scene` (either may be `*`) → policy. */
  policies: Record<string, CaptchaPolicy>;
  /** pid (or `*`) → provider. */
  providers: Record<string, CaptchaProvider>;
  fallbackRule: 'DEFAULT' | VendorName;
  ticketTtlSeconds: number;
  challengeTtlSeconds: number;
  riskWindowSeconds: number;
  riskFailures: number;
  riskIpFailures: number;
  riskIpSends: number;
  riskRuleRequests: number;
  slideTolerance: number;
  allowVendorFallback: boolean;
  vendorTimeoutMs: number;
  geetest: GeetestConfig | undefined;
  tencent: TencentConfig | undefined;
  netease: NeteaseConfig | undefined;
  nextdata: NextdataConfig | undefined;
  aliyun: AliyunConfig | undefined;
}

type Env = Record<string, string | undefined>;

const POLICIES: readonly string[] = ['never', 'always', 'risk'];
const isProvider = (value: string): value is CaptchaProvider =>
  (CAPTCHA_PROVIDERS as readonly string[]).includes(value);

export const readCaptchaConfig = (env: Env, problems: string[]): CaptchaConfig => {
  const str = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    problems.push(
      `${name}="${raw}" must be a whole number from ${min} to ${max}. Fix: set ${name}=${fallback} or unset it.`,
    );
    return fallback;
  };
  const url = (name: string, fallback: string) => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    if (/^https?:\/\/[^\s]+$/i.test(raw)) return raw;
    problems.push(`${name}="${raw}" must be an http or https URL. Fix: e.g. ${name}=${fallback}`);
    return fallback;
  };

  const policies: Record<string, CaptchaPolicy> = {};
  const policyRaw = str('CAPTCHA_POLICY') ?? 'risk';
  for (const entry of policyRaw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [key, value] = entry.includes('=') ? entry.split('=', 2) : ['*:*', entry];
    const policy = value?.trim().toLowerCase() ?? '';
    const [pid, scene, ...rest] = (key ?? '').trim().split(':');
    if (!POLICIES.includes(policy) || !pid || !scene || rest.length > 0) {
      problems.push(
        `CAPTCHA_POLICY entry "${entry}" must be risk, always, never or pid:scene=policy. Fix: e.g. CAPTCHA_POLICY=*:*=risk,edupass:login=always`,
      );
      continue;
    }
    policies[`${pid}:${scene.toLowerCase()}`] = policy as CaptchaPolicy;
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

  const fallbackRaw = (str('CAPTCHA_FALLBACK_RULE') ?? 'DEFAULT').toUpperCase();
  let fallbackRule: CaptchaConfig['fallbackRule'] = 'DEFAULT';
  if (fallbackRaw === 'DEFAULT' || (isProvider(fallbackRaw) && fallbackRaw !== 'SLIDE')) fallbackRule = fallbackRaw;
  else
    problems.push(
      `CAPTCHA_FALLBACK_RULE="${fallbackRaw}" must be DEFAULT or a vendor. Fix: CAPTCHA_FALLBACK_RULE=DEFAULT`,
    );

  const allowRaw = (str('CAPTCHA_ALLOW_VENDOR_FALLBACK') ?? 'false').toLowerCase();
  if (!['1', 'true', 'yes', '0', 'false', 'no'].includes(allowRaw)) {
    problems.push(`CAPTCHA_ALLOW_VENDOR_FALLBACK="${allowRaw}" must be true or false. Fix: unset it.`);
  }

  /** A vendor is configured when all its keys are set; half a configuration is an error, not a silent skip. */
  const group = <T>(names: Record<keyof T & string, string>, defaults: Partial<T>): T | undefined => {
    const values: Record<string, string | undefined> = {};
    const entries = Object.entries(names) as [string, string][];
    for (const [field, name] of entries) {
      values[field] = str(name) ?? (defaults as Record<string, string | undefined>)[field];
    }
    // Endpoints alone (e.g. pointed at a test peer) do not configure a vendor; its keys do.
    const given = entries.filter(([field, name]) => str(name) !== undefined && !(field in defaults)).map(([, n]) => n);
    if (given.length === 0) return undefined;
    const missing = entries.filter(([field]) => values[field] === undefined);
    if (missing.length > 0) {
      problems.push(`${missing.map(([, name]) => name).join(', ')} must be set together with ${given.join(', ')}.`);
      return undefined;
    }
    return values as T;
  };

  const geetest = group<GeetestConfig>(
    { id: 'GEETEST_ID', key: 'GEETEST_KEY', apiUrl: 'GEETEST_API_URL' },
    {
      apiUrl: 'http://api.geetest.com',
    },
  );
  const tencent = group<TencentConfig>(
    {
      appId: 'TENCENT_CAPTCHA_APP_ID',
      appSecretKey: 'TENCENT_CAPTCHA_APP_SECRET_KEY',
      secretId: 'TENCENTCLOUD_SECRET_ID',
      secretKey: 'TENCENTCLOUD_SECRET_KEY',
      endpoint: 'TENCENT_CAPTCHA_ENDPOINT',
    },
    { endpoint: 'https://captcha.tencentcloudapi.com' },
  );
  const netease = group<NeteaseConfig>(
    {
      captchaId: 'NETEASE_CAPTCHA_ID',
      secretId: 'NETEASE_SECRET_ID',
      secretKey: 'NETEASE_SECRET_KEY',
      endpoint: 'NETEASE_CAPTCHA_ENDPOINT',
    },
    { endpoint: 'https://c.dun.163.com/api/v2/verify' },
  );
  const nextdata = group<NextdataConfig>(
    {
      organization: 'NEXTDATA_ORGANIZATION',
      accessKey: 'NEXTDATA_ACCESS_KEY',
      appId: 'NEXTDATA_APP_ID',
      endpoint: 'NEXTDATA_CAPTCHA_ENDPOINT',
    },
    { appId: 'default', endpoint: 'http://captcha.fengkongcloud.com/ca/v1/fverify' },
  );
  const aliyun = group<AliyunConfig>(
    {
      prefix: 'ALIYUN_CAPTCHA_PREFIX',
      sceneId: 'ALIYUN_CAPTCHA_SCENE_ID',
      accessKeyId: 'ALIYUN_ACCESS_KEY_ID',
      accessKeySecret: 'ALIYUN_ACCESS_KEY_SECRET',
      endpoint: 'ALIYUN_CAPTCHA_ENDPOINT',
    },
    { endpoint: 'https://captcha.cn-shanghai.aliyuncs.com' },
  );
  for (const endpoint of [
    'GEETEST_API_URL',
    'TENCENT_CAPTCHA_ENDPOINT',
    'NETEASE_CAPTCHA_ENDPOINT',
    'NEXTDATA_CAPTCHA_ENDPOINT',
    'ALIYUN_CAPTCHA_ENDPOINT',
  ]) {
    url(endpoint, 'https://example.com');
  }

  const config: CaptchaConfig = {
    policies,
    providers,
    fallbackRule,
    ticketTtlSeconds: int('CAPTCHA_TICKET_TTL', 300, 10, 3600),
    challengeTtlSeconds: int('CAPTCHA_CHALLENGE_TTL', 120, 10, 3600),
    riskWindowSeconds: int('CAPTCHA_RISK_WINDOW', 3600, 60, 7 * 86_400),
    riskFailures: int('CAPTCHA_RISK_FAILURES', 1, 1, 1000),
    riskIpFailures: int('CAPTCHA_RISK_IP_FAILURES', 3, 1, 100_000),
    riskIpSends: int('CAPTCHA_RISK_IP_SENDS', 10, 1, 100_000),
    riskRuleRequests: int('CAPTCHA_RISK_RULE_REQUESTS', 5, 1, 100_000),
    slideTolerance: int('CAPTCHA_SLIDE_TOLERANCE', 4, 1, 20),
    allowVendorFallback: ['1', 'true', 'yes'].includes(allowRaw),
    vendorTimeoutMs: int('CAPTCHA_VENDOR_TIMEOUT', 5000, 100, 60_000),
    geetest,
    tencent,
    netease,
    nextdata,
    aliyun,
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
  if (fallbackRule !== 'DEFAULT' && vendorConfigured[fallbackRule] === undefined) {
    problems.push(
      `CAPTCHA_FALLBACK_RULE names ${fallbackRule} but its keys are not set. Fix: set them or use DEFAULT.`,
    );
  }
  return config;
};

/** What an operator chooses for a product's captcha (console-routes.ts exports these). */

/** Captcha policies an operator may set; `risk` challenges only suspicious attempts. */
export const CAPTCHA_POLICIES = ['never', 'always', 'risk'] as const;
export type CaptchaPolicyName = (typeof CAPTCHA_POLICIES)[number];

/** The challenges a product can be given: EduPass's own slide puzzle, or a vendor's. */
export const CAPTCHA_PROVIDERS = ['SLIDE', 'GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN'] as const;
export type CaptchaProviderName = (typeof CAPTCHA_PROVIDERS)[number];
export type CaptchaVendorName = Exclude<CaptchaProviderName, 'SLIDE'>;

/** Where a vendor setting in effect comes from. */
export const CAPTCHA_KEY_SOURCES = ['console', 'environment', 'default'] as const;
export type CaptchaKeySource = (typeof CAPTCHA_KEY_SOURCES)[number];

const isOneOf = <T extends string>(names: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (names as readonly string[]).includes(value);

/** Whether `value` is a captcha policy name (e.g. read from an answer or a setting). */
export const isCaptchaPolicy = (value: unknown): value is CaptchaPolicyName => isOneOf(CAPTCHA_POLICIES, value);
/** Whether `value` is a challenge provider name. */
export const isCaptchaProvider = (value: unknown): value is CaptchaProviderName => isOneOf(CAPTCHA_PROVIDERS, value);

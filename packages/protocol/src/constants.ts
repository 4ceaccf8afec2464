/** Business constants and limits of the specification (§9). */
export const SDK_ACCOUNT_VERSION = '0.16.2';

export const REQUEST_TIMEOUT_MS = 20_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const CHUNK_COUNT = 76;
/** Cookies are cleared by writing them with this max age. */
export const COOKIE_CLEAR_MAX_AGE = -99_999_999;
export const UID_COOKIE_DAYS = 30;
export const STORAGE_FALLBACK_DAYS = 30;
/** "No agreement chosen". */
export const DEFAULT_AGREEMENT_IDS: readonly number[] = [-1];
export const TOKEN_RETRY_LIMIT = 2;
export const CAPTCHA_PARAMS_RETRIES = 3;
export const FINGERPRINT_WAIT = 10;
export const FINGERPRINT_TIMEOUT_MS = 500;

export const CAPTCHA_WIDGET_WIDTH = 300;
export const CAPTCHA_MASK_REMOVE_DELAY_MS = 600;
export const CAPTCHA_RULES = ['GEETEST', 'TENCENT', 'NETEASE', 'NEXTDATA', 'ALIYUN', 'DEFAULT'] as const;
/** EduPass's own offline slide puzzle; offered only to clients that ask for it. */
export const SLIDE_RULE = 'SLIDE';
export type CaptchaRule = (typeof CAPTCHA_RULES)[number] | typeof SLIDE_RULE;
export const ALIYUN_LOGIN_SCENE = 'aliyun_login';

export const TRACKER = {
  queueMax: 1000,
  eventSizeLimit: 5000,
  requestSizeLimit: 30_000,
  /** Sizes are counted as this many times the JSON length. */
  sizeFactor: 3,
  sendIntervalMs: 500,
  consents: ['event', 'view', 'user', 'app', 'device'],
} as const;

export const MONITOR = {
  /** 1 in 10, written as a literal so bundlers can drop the object when unused. */
  successSampleRate: 0.1,
  businessErrorStatus: [400, 499],
  codes: { network: 601, timeout: 602, abort: 603, fetch: 604 },
} as const;

export const LAZY_IMAGE = { preloadScreens: 1.3, attempts: 3, throttleMs: 200 } as const;
export const INFINITE_SCROLL = { throttleMs: 200, distance: 0 } as const;

export const ENVS = ['dev', 'staging', 'prod', 'api-test', 'test', 'press'] as const;
export type Env = (typeof ENVS)[number];

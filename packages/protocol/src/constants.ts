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
/**
 * The languages an agreement's text is kept in, the first being the one a reader gets when their own
 * has none (and an English reader gets the Chinese text when there is no English one).
 */
export const AGREEMENT_LANGUAGES = ['zh-CN', 'en'] as const;
export type AgreementLanguage = (typeof AGREEMENT_LANGUAGES)[number];
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

/**
 * Profile pictures uploaded by users: the client crops a square and sends it as a data URL of at most
 * `maxBytes`; the server checks it is an image, re-encodes it to a `size`×`size` WebP without metadata, and
 * stores it (local disk, or an S3-compatible store).
 */
/**
 * The longest data URL of AVATAR.maxBytes bytes: base64's 4 characters per 3 bytes, and its prefix
 * (⌈524288 / 3⌉ × 4 + 32). A plain number of its own, so the route table's reference to it lets bundles
 * that never upload drop AVATAR (a property read or a call would be kept).
 */
export const AVATAR_DATA_URL_MAX = 699_084;
/** The largest upload request body: the data URL and a little JSON around it. */
export const AVATAR_BODY_MAX = 700_108;

export const AVATAR = {
  maxBytes: 524_288,
  size: 256,
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  maxDataUrl: AVATAR_DATA_URL_MAX,
} as const;

/**
 * The nickname a new account gets when it brings none: the prefix and this many random digits
 * (the server draws it; clients tell it from a chosen one, e.g. to draw a default avatar).
 */
export const DEFAULT_NICKNAME = { prefix: '用户', digits: 8 } as const;
export const isDefaultNickname = (nickname: string): boolean =>
  nickname.length === DEFAULT_NICKNAME.prefix.length + DEFAULT_NICKNAME.digits &&
  nickname.startsWith(DEFAULT_NICKNAME.prefix) &&
  /^\d+$/.test(nickname.slice(DEFAULT_NICKNAME.prefix.length));

/**
 * The cookie in which the web client keeps the language the visitor chose (`zh-CN` or `en`, besides
 * its own storage): the pages the server renders itself (the sign-out page an application opens) read it.
 */
export const LOCALE_COOKIE = 'edupass.locale';

/**
 * The WeChat and QQ part of the configuration, read by `loadConfig` (config.ts) with the same rules.
 *
 * WECHAT_APP_ID, WECHAT_APP_SECRET  a website app of open.weixin.qq.com (微信开放平台 → 网站应用).
 * WECHAT_OPEN_URL   where browsers scan the QR code (https://open.weixin.qq.com).
 * WECHAT_API_URL    where codes are exchanged (https://api.weixin.qq.com).
 * QQ_APP_ID, QQ_APP_KEY  a website app of connect.qq.com (QQ互联 → 网站应用: APP ID and APP Key).
 * QQ_GRAPH_URL      QQ's OAuth host (https://graph.qq.com).
 * QQ_UNIONID        ask /oauth2.0/me for the unionid (needs QQ's approval; false).
 * OAUTH_TIMEOUT_MS  time allowed for each provider call (5000).
 * OAUTH_TICKET_TTL  seconds an `oauth_ticket` stays usable (600).
 * OAUTH_WITHOUT_STATE  comma list of pids (or *) whose code sign-in and bind may come without EduPass's
 *                   `state`: for sites whose own front end runs the provider redirect (the console's
 *                   switch per product wins over it). Off by default; see docs/operators.md.
 *
 * Without an app's credentials the built-in development provider stands in where development routes
 * are on (config.ts: loopback development, or DEV_ROUTES=1; never in production), else that sign-in is
 * off; its URLs are PUBLIC_URL/dev/oauth/wechat and /dev/oauth/qq unless the
 * URL variables say otherwise.
 */
import { DAY_SECONDS } from '@edupass/protocol';
import type { Readers } from './readers.ts';

/** A WeChat or QQ app. */
export interface OauthAppConfig {
  /** 'real': credentials set; 'dev': the built-in development provider; 'off': neither (production, or development routes off). */
  mode: 'real' | 'dev' | 'off';
  appId: string;
  appSecret: string;
  /** Where browsers are sent to authorize; unset: PUBLIC_URL/dev/oauth/<provider>. */
  authorizeBase: string | undefined;
  /** Where the server exchanges codes; unset: PUBLIC_URL/dev/oauth/<provider>. */
  apiBase: string | undefined;
}

type Env = Record<string, string | undefined>;

/** The development provider's own app: only it accepts these. */
const DEV_APPS = {
  WECHAT: { appId: 'wxedupassdev00001', appSecret: 'edupass-dev-wechat-secret' },
  QQ: { appId: '101000001', appSecret: 'edupass-dev-qq-key' },
} as const;

/** Each app's variables and the real provider's hosts. */
export const OAUTH_VARIABLES = {
  WECHAT: {
    appId: 'WECHAT_APP_ID',
    secret: 'WECHAT_APP_SECRET',
    authorizeUrl: 'WECHAT_OPEN_URL',
    apiUrl: 'WECHAT_API_URL',
    realAuthorize: 'https://open.weixin.qq.com',
    realApi: 'https://api.weixin.qq.com',
  },
  QQ: {
    appId: 'QQ_APP_ID',
    secret: 'QQ_APP_KEY',
    authorizeUrl: 'QQ_GRAPH_URL',
    apiUrl: 'QQ_GRAPH_URL',
    realAuthorize: 'https://graph.qq.com',
    realApi: 'https://graph.qq.com',
  },
} as const;

const oauthApp = (
  env: Env,
  { str, url }: Readers,
  problems: string[],
  prefix: 'WECHAT' | 'QQ',
  devProvidersOff: boolean,
): OauthAppConfig => {
  const names = OAUTH_VARIABLES[prefix];
  const appId = str(names.appId);
  const appSecret = str(names.secret);
  if ((appId === undefined) !== (appSecret === undefined)) {
    problems.push(
      `${names.appId} and ${names.secret} go together. Fix: set both (from the provider's console) or neither.`,
    );
  }
  const real = appId !== undefined && appSecret !== undefined;
  const base = (name: string, fallback: string) =>
    env[name] ? url(name, fallback, ['http:', 'https:']).replace(/\/+$/, '') : real ? fallback : undefined;
  return {
    mode: real ? 'real' : devProvidersOff ? 'off' : 'dev',
    ...(real ? { appId, appSecret } : DEV_APPS[prefix]),
    authorizeBase: base(names.authorizeUrl, names.realAuthorize),
    apiBase: base(names.apiUrl, names.realApi),
  };
};

export const readOauthConfig = (env: Env, read: Readers, problems: string[], devProvidersOff: boolean) => ({
  wechat: oauthApp(env, read, problems, 'WECHAT', devProvidersOff),
  qq: { ...oauthApp(env, read, problems, 'QQ', devProvidersOff), unionid: read.bool('QQ_UNIONID', false) },
  oauthTimeoutMs: read.int('OAUTH_TIMEOUT_MS', 5000, 100, 60_000),
  oauthTicketTtlSeconds: read.int('OAUTH_TICKET_TTL', 600, 60, DAY_SECONDS),
  oauthWithoutState: (read.str('OAUTH_WITHOUT_STATE') ?? '')
    .split(',')
    .map((pid) => pid.trim())
    .filter((pid) => pid !== ''),
});

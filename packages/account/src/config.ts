import { ENVS, type Env, INIT_FAIL_MESSAGE, REQUEST_TIMEOUT_MS } from '@edupass/protocol';
import { authError } from './errors.ts';
import type { Logger } from './logger.ts';
import type { TokenStore } from './token-store.ts';

/** Base URLs of the two host kinds; either may be left out. */
export interface HostOverride {
  /** Main backend (account, token and older captcha paths), e.g. `https://api.example.com`. */
  tiger?: string;
  /** Platform service (captcha rule and vendor exchanges). */
  platform?: string;
}

/** What `init` / `createAccountClient` accept (spec §3 "Init configuration"). */
export interface AccountConfig {
  /** Product id: sent as the `pid` header and in bodies that carry one. */
  pid: string;
  /** Application id: sent with WeChat sign-in and binding. */
  appid: string | number;
  /** Sent as the `Product-Code` header. */
  product_code: string | number;
  /** Sent as the `Platform` header. */
  platform: string | number;
  /**
   * Environment: picks the base hosts and, outside `prod`, prefixes the token cookie names with `<env>_`.
   * @default 'prod'
   */
  env?: Env;
  /**
   * The product's shared parent domain (`example.com`). Token cookies are written on it, and the base
   * hosts derive from it: `https://api.<domain>` and `https://platform.<domain>` in prod,
   * `https://<env>-api.<domain>` and `https://<env>-platform.<domain>` elsewhere.
   * @default undefined — host-only cookies and same-origin requests
   */
  domain?: string;
  /** Base URLs that replace the per-environment ones. @default undefined */
  host?: HostOverride;
  /**
   * Sent as `Auth-Version`. When set, the server answers with token sets, which the SDK stores and sends
   * as `Authorization` on calls that need a signed-in user; when unset, the session rides on the
   * server's HttpOnly cookie alone.
   * @default undefined
   */
  auth_version?: string | number;
  /** Sent as `Client-ID`. @default undefined */
  client_id?: string;
  /** Milliseconds before a request fails with code 12. @default 20000 */
  requestTimeout?: number;
  /** How many times a call refused with 'Access token is invalid.' is refreshed and retried. @default 2 */
  tokenRetries?: number;
  /** Where tokens live. @default cookies on `domain` in browsers, memory elsewhere */
  storage?: TokenStore;
  /** Receives warnings. @default the console */
  logger?: Logger;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Share token changes with the other tabs of this origin (BroadcastChannel) and hold one refresh at a
   * time across them (Web Locks).
   * @default true where the page has a document
   */
  crossTab?: boolean;
}

export interface ResolvedConfig extends AccountConfig {
  env: Env;
  requestTimeout: number;
}

const isId = (value: unknown): boolean =>
  (typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value));

/** Checks the init params (spec §5) and fills defaults; throws code -1 'Auth init fail.Check init params.' */
export const resolveConfig = (config: AccountConfig): ResolvedConfig => {
  const fail = () => authError('INIT_PARAMS_INVALID', INIT_FAIL_MESSAGE);
  if (typeof config !== 'object' || config === null) throw fail();
  const env = config.env ?? 'prod';
  const requestTimeout = config.requestTimeout ?? REQUEST_TIMEOUT_MS;
  const valid =
    typeof config.pid === 'string' &&
    config.pid !== '' &&
    isId(config.appid) &&
    isId(config.product_code) &&
    isId(config.platform) &&
    ENVS.includes(env) &&
    requestTimeout > 0;
  if (!valid) throw fail();
  return { ...config, env, requestTimeout };
};

/** What the server needs from a third-party sign-in provider, whatever its protocol. */
import { fetchText, type ProviderAnswer, ProviderUnreachableError, stringField } from './provider-http.ts';

export const OAUTH_PROVIDERS = ['wechat', 'qq'] as const;
export type OauthProviderName = (typeof OAUTH_PROVIDERS)[number];

export const isOauthProvider = (name: string): name is OauthProviderName =>
  (OAUTH_PROVIDERS as readonly string[]).includes(name);

/** The person the provider vouches for. */
export interface OauthIdentity {
  provider: OauthProviderName;
  /** Unique per app. */
  openid: string;
  /** Unique across the apps of one developer account, when the provider gives it. */
  unionid: string | null;
  nickname: string;
  avatarUrl: string;
}

export interface OauthProvider {
  name: OauthProviderName;
  /** Where to send the browser; the provider comes back to `redirectUri` with `code` and `state`. */
  authorizeUrl(input: { redirectUri: string; state: string }): string;
  /** Exchanges a code for the identity; `redirectUri` is the one the code was issued to. */
  identify(code: string, redirectUri: string): Promise<OauthIdentity>;
}

/** The provider refused or failed; `message` is for operators and logs, `reason` is safe to show. */
export class OauthProviderError extends Error {
  constructor(
    readonly provider: OauthProviderName,
    message: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'OauthProviderError';
  }
}

export interface OauthAppSettings {
  appId: string;
  appSecret: string;
  authorizeBase: string;
  apiBase: string;
  timeoutMs: number;
}

/** Throws the provider's failure: `message` for the log, `reason` for the user. */
export const providerFailure = (
  provider: OauthProviderName,
  message: string,
  reason: string,
  cause?: unknown,
): never => {
  throw new OauthProviderError(provider, message, reason, cause === undefined ? undefined : { cause });
};

/** A non-empty string field of a provider's answer; without it, the answer is that provider's failure. */
export const requiredField = (
  provider: OauthProviderName,
  label: string,
  body: Record<string, unknown>,
  key: string,
  path: string,
): string => {
  const value = stringField(body, key);
  return value !== undefined && value !== ''
    ? value
    : providerFailure(provider, `${label} ${path} answered without ${key}`, `${label} gave an incomplete answer`);
};

/** GETs a provider API path; a provider that is down or slow is that provider's failure. */
export const getFromProvider = async (
  provider: OauthProviderName,
  label: string,
  settings: OauthAppSettings,
  path: string,
  query: Record<string, string>,
): Promise<ProviderAnswer> => {
  try {
    return await fetchText(
      `${settings.apiBase}${path}?${new URLSearchParams(query)}`,
      { method: 'GET' },
      settings.timeoutMs,
    );
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    return providerFailure(
      provider,
      `${label} ${path}: ${error.message}`,
      error.timedOut ? `${label} did not answer in time` : `${label} could not be reached`,
      error,
    );
  }
};

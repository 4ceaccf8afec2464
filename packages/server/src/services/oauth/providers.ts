/**
 * The WeChat and QQ adapters as configured, and their failures as catalogue errors: a provider that
 * refuses, answers nonsense or times out is C_2 (WeChat) or C_1 (QQ); a provider that is not set up
 * is AC3_19.
 */
import {
  type OauthIdentity,
  type OauthProvider,
  OauthProviderError,
  type OauthProviderName,
} from '../../adapters/oauth-provider.ts';
import { qqProvider } from '../../adapters/qq.ts';
import { wechatProvider } from '../../adapters/wechat.ts';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';

/** The providers' names, for the routes (which reach the adapters only through here). */
export { isOauthProvider, OAUTH_PROVIDERS, type OauthProviderName } from '../../adapters/oauth-provider.ts';

export const PROVIDER_LABELS: Record<OauthProviderName, string> = { wechat: 'WeChat', qq: 'QQ' };
const PROVIDER_ERRORS = { wechat: 'C_2', qq: 'C_1' } as const;

/** Where the built-in development provider answers: this server, as the browser reaches it. */
const devProviderBase = (ctx: Context, name: OauthProviderName) =>
  `${ctx.config.publicUrl.replace(/\/+$/, '')}/dev/oauth/${name}`;

export const oauthProvider = (ctx: Context, name: OauthProviderName): OauthProvider => {
  const app = ctx.config[name];
  if (app.mode === 'off') fail('AC3_19', `${PROVIDER_LABELS[name]} sign-in is not set up on this server.`);
  const settings = {
    appId: app.appId,
    appSecret: app.appSecret,
    authorizeBase: app.authorizeBase ?? devProviderBase(ctx, name),
    apiBase: app.apiBase ?? devProviderBase(ctx, name),
    timeoutMs: ctx.config.oauthTimeoutMs,
  };
  return name === 'wechat' ? wechatProvider(settings) : qqProvider({ ...settings, unionid: ctx.config.qq.unionid });
};

/** The identity behind a code; the provider's refusal or silence as C_2 / C_1. */
export const identify = async (
  ctx: Context,
  provider: OauthProvider,
  code: string,
  redirectUri: string,
): Promise<OauthIdentity> => {
  try {
    return await provider.identify(code, redirectUri);
  } catch (error) {
    if (!(error instanceof OauthProviderError)) throw error;
    ctx.logger.warn({ provider: provider.name, detail: error.message }, 'third-party sign-in failed at the provider');
    throw new ApiError(
      PROVIDER_ERRORS[provider.name],
      `${PROVIDER_LABELS[provider.name]} sign-in failed: ${error.reason}. Start the sign-in again.`,
    );
  }
};

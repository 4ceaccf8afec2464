/**
 * `doctor`'s checks of what codes and sign-in go through: SMTP, the SMS provider, WeChat and QQ. Each
 * asks the adapter the server itself uses, so what passes here is what the server will send with.
 */
import { smsProviderFor } from '../adapters/delivery-router.ts';
import { smtpSender } from '../adapters/email.ts';
import { getFromProvider, OauthProviderError, type OauthProviderName } from '../adapters/oauth-provider.ts';
import type { Config } from '../config/config.ts';
import { OAUTH_VARIABLES } from '../config/oauth-config.ts';
import { PROVIDER_LABELS } from '../services/oauth/providers.ts';
import type { Finding } from './doctor.ts';

/** Short, so doctor answers in seconds even when a host swallows packets. */
const SMTP_TIMEOUT_MS = 5000;

/** Without a provider, codes land in the dev outbox: right on a laptop, read by nobody in production. */
const outbox = (config: Config, check: 'email' | 'sms', codes: string, unset: string, fix: string): Finding =>
  config.production
    ? {
        check,
        ok: false,
        detail: `${unset} is unset in production: ${codes} codes go to the dev outbox and reach nobody. Fix: ${fix} (see docs/operators.md).`,
      }
    : { check, ok: true, detail: `dev outbox (${unset} unset)` };

export const checkEmail = async (config: Config): Promise<Finding> => {
  if (!config.smtp) {
    return outbox(
      config,
      'email',
      'e-mail',
      'SMTP_HOST',
      'set SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD and SMTP_FROM',
    );
  }
  const sender = smtpSender(config.smtp, SMTP_TIMEOUT_MS);
  try {
    return { check: 'email', ...(await sender.check()) };
  } finally {
    sender.close();
  }
};

export const checkSms = async (config: Config): Promise<Finding> => {
  if (!config.sms) {
    return outbox(
      config,
      'sms',
      'SMS and voice',
      'SMS_PROVIDER',
      'set SMS_PROVIDER=aliyun or tencent with SMS_ACCESS_KEY_ID, SMS_ACCESS_KEY_SECRET, SMS_SIGN_NAME and SMS_TEMPLATE',
    );
  }
  return { check: 'sms', ...(await smsProviderFor(config.sms).check()) };
};

/**
 * The provider's API host must answer. Any HTTP answer will do: WeChat and QQ check an app's
 * credentials only together with a user's code, so nothing can try them before someone signs in.
 */
export const checkOauth = async (config: Config, name: OauthProviderName): Promise<Finding> => {
  const app = config[name];
  const label = PROVIDER_LABELS[name];
  const names = OAUTH_VARIABLES[name.toUpperCase() as Uppercase<OauthProviderName>];
  // Production never runs the development provider: without credentials the config turns sign-in off.
  if (app.mode === 'off')
    return { check: name, ok: true, detail: `off: set ${names.appId}/${names.secret} to turn on` };
  if (app.mode === 'dev') {
    return { check: name, ok: true, detail: `development provider (${names.appId}/${names.secret} unset)` };
  }
  const apiBase = app.apiBase ?? names.realApi;
  const where = `${names.apiUrl}=${apiBase}`;
  try {
    const answer = await getFromProvider(
      name,
      label,
      { ...app, authorizeBase: app.authorizeBase ?? names.realAuthorize, apiBase, timeoutMs: config.oauthTimeoutMs },
      '/',
      {},
    );
    return {
      check: name,
      ok: true,
      detail: `${where} answers (HTTP ${answer.status}); ${names.appId}/${names.secret} are not checked: ${label} tries them only with a user's code, at the first sign-in`,
    };
  } catch (error) {
    if (!(error instanceof OauthProviderError)) throw error;
    return {
      check: name,
      ok: false,
      detail: `${error.reason} at ${where}. Fix: check ${names.apiUrl} (unset means ${names.realApi}), that this server may connect out to it over https, and OAUTH_TIMEOUT_MS.`,
    };
  }
};

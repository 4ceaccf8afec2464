/**
 * QQ website sign-in (QQ互联 网站应用, OAuth 2.0 at graph.qq.com): /oauth2.0/authorize sends the browser
 * back with a code; /oauth2.0/token exchanges it (with the same redirect_uri) for an access token;
 * /oauth2.0/me names the openid (and the unionid with `unionid=1`); /user/get_user_info gives the
 * nickname and avatar. QQ answers in three dialects: form-encoded (`access_token=…&expires_in=…`),
 * JSONP (`callback( {…} );`, its errors too) and JSON (`{ret, msg}` from the user API).
 */
import {
  getFromProvider,
  type OauthAppSettings,
  type OauthIdentity,
  type OauthProvider,
  providerFailure,
  requiredField,
} from './oauth-provider.ts';
import { jsonObject, stringField } from './provider-http.ts';

export interface QqSettings extends OauthAppSettings {
  /** Ask /oauth2.0/me for the unionid (an ability QQ grants on request). */
  unionid: boolean;
}

const fail = (message: string, reason: string): never => providerFailure('qq', message, reason);

const JSONP = /^\s*callback\s*\(\s*([\s\S]*?)\s*\)\s*;?\s*$/;

/** Reads any of QQ's answer dialects into an object; undefined when it is none of them. */
export const parseQqAnswer = (text: string): Record<string, unknown> | undefined => {
  const jsonp = JSONP.exec(text);
  if (jsonp) return jsonObject(jsonp[1] ?? '');
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) return jsonObject(trimmed);
  if (!/^[\w.-]+=/.test(trimmed)) return undefined;
  return Object.fromEntries(new URLSearchParams(trimmed));
};

const call = async (settings: QqSettings, path: string, query: Record<string, string>) => {
  const answer = await getFromProvider('qq', 'QQ', settings, path, query);
  const body = parseQqAnswer(answer.text);
  if (!body)
    return fail(`QQ ${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`, 'QQ gave an unreadable answer');
  // OAuth errors: {error, error_description}; user API errors: {ret (non-zero), msg}.
  const error = body.error;
  if (error !== undefined && error !== 0 && error !== '0') {
    const description = stringField(body, 'error_description') ?? '';
    return fail(
      `QQ ${path} answered error ${String(error)}: ${description}`,
      `QQ refused (${String(error)} ${description})`,
    );
  }
  const ret = body.ret;
  if (ret !== undefined && ret !== 0 && ret !== '0') {
    const msg = stringField(body, 'msg') ?? '';
    return fail(`QQ ${path} answered ret ${String(ret)}: ${msg}`, `QQ refused (${String(ret)} ${msg})`);
  }
  if (answer.status !== 200) return fail(`QQ ${path} answered HTTP ${answer.status}`, 'QQ gave an error');
  return body;
};

export const qqProvider = (settings: QqSettings): OauthProvider => ({
  name: 'qq',
  authorizeUrl: ({ redirectUri, state }) =>
    `${settings.authorizeBase}/oauth2.0/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: settings.appId,
      redirect_uri: redirectUri,
      state,
      scope: 'get_user_info',
    })}`,
  async identify(code, redirectUri): Promise<OauthIdentity> {
    const token = await call(settings, '/oauth2.0/token', {
      grant_type: 'authorization_code',
      client_id: settings.appId,
      client_secret: settings.appSecret,
      code,
      redirect_uri: redirectUri,
    });
    const accessToken = requiredField('qq', 'QQ', token, 'access_token', '/oauth2.0/token');
    const me = await call(settings, '/oauth2.0/me', {
      access_token: accessToken,
      ...(settings.unionid ? { unionid: '1' } : {}),
    });
    // A token issued to another app must not sign anyone in here.
    if (stringField(me, 'client_id') !== settings.appId) {
      fail('QQ /oauth2.0/me named another client_id', 'QQ gave a token of another app');
    }
    const openid = requiredField('qq', 'QQ', me, 'openid', '/oauth2.0/me');
    const info = await call(settings, '/user/get_user_info', {
      access_token: accessToken,
      oauth_consumer_key: settings.appId,
      openid,
    });
    return {
      provider: 'qq',
      openid,
      unionid: stringField(me, 'unionid') ?? null,
      nickname: stringField(info, 'nickname') ?? '',
      avatarUrl:
        stringField(info, 'figureurl_qq_2') ||
        stringField(info, 'figureurl_qq_1') ||
        stringField(info, 'figureurl_2') ||
        '',
    };
  },
});

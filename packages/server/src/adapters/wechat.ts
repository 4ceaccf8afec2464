/**
 * WeChat website sign-in (微信开放平台 网站应用微信登录): the browser scans a QR code at
 * open.weixin.qq.com/connect/qrconnect (scope snsapi_login); the code it brings back is exchanged at
 * /sns/oauth2/access_token for access_token, openid and unionid; /sns/userinfo gives the nickname and
 * avatar. Failures are JSON `{errcode, errmsg}` bodies, often with HTTP 200 and a text/plain type.
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

const fail = (message: string, reason: string): never => providerFailure('wechat', message, reason);

/** GETs a WeChat API path; its JSON object, or the failure its errcode names. */
const call = async (settings: OauthAppSettings, path: string, query: Record<string, string>) => {
  const answer = await getFromProvider('wechat', 'WeChat', settings, path, query);
  const body = jsonObject(answer.text);
  if (!body) return fail(`WeChat ${path} answered ${answer.status} without JSON`, 'WeChat gave an unreadable answer');
  const errcode = body.errcode;
  if (errcode !== undefined && errcode !== 0) {
    const errmsg = stringField(body, 'errmsg') ?? '';
    return fail(
      `WeChat ${path} answered errcode ${String(errcode)}: ${errmsg}`,
      `WeChat refused (${String(errcode)} ${errmsg.split(',')[0]})`,
    );
  }
  if (answer.status !== 200) return fail(`WeChat ${path} answered HTTP ${answer.status}`, 'WeChat gave an error');
  return body;
};

export const wechatProvider = (settings: OauthAppSettings): OauthProvider => ({
  name: 'wechat',
  authorizeUrl: ({ redirectUri, state }) =>
    `${settings.authorizeBase}/connect/qrconnect?${new URLSearchParams({
      appid: settings.appId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_login',
      state,
    })}#wechat_redirect`,
  async identify(code): Promise<OauthIdentity> {
    const tokenPath = '/sns/oauth2/access_token';
    const token = await call(settings, tokenPath, {
      appid: settings.appId,
      secret: settings.appSecret,
      code,
      grant_type: 'authorization_code',
    });
    const accessToken = requiredField('wechat', 'WeChat', token, 'access_token', tokenPath);
    const openid = requiredField('wechat', 'WeChat', token, 'openid', tokenPath);
    const info = await call(settings, '/sns/userinfo', { access_token: accessToken, openid, lang: 'zh_CN' });
    if (stringField(info, 'openid') !== openid) {
      fail('WeChat /sns/userinfo answered for another openid', 'WeChat gave an inconsistent answer');
    }
    return {
      provider: 'wechat',
      openid,
      unionid: stringField(info, 'unionid') ?? stringField(token, 'unionid') ?? null,
      nickname: stringField(info, 'nickname') ?? '',
      avatarUrl: stringField(info, 'headimgurl') ?? '',
    };
  },
});

/**
 * The WeChat / QQ redirect flow: the browser goes to the server's authorize endpoint (which binds a
 * state to this browser in a cookie and sends it on to the provider), the provider sends it back to
 * `/?oauth=<provider>&code=…&state=…`, and the callback screen finishes with the code and state.
 * What the flow was for (sign-in or binding) is kept in this tab's sessionStorage. A step-up goes
 * through a window of its own (`then=step-up` in the return address), so the page that asked keeps
 * the change it will repeat.
 */
import { baseUrl } from '@edupass/account';
import { authorizeQQRoute, authorizeWechatRoute } from '@edupass/protocol';
import { client } from '../session/account.ts';

export type OauthProvider = 'wechat' | 'qq';
export type OauthPurpose = 'login' | 'bind';

const KEY = 'edupass.oauth';

/** The query mark of a return that proves a step-up (in its own window, stepUpWindow). */
export const STEP_UP_RETURN = 'step-up';

export const authorizeUrl = (provider: OauthProvider, then?: typeof STEP_UP_RETURN): string => {
  const route = provider === 'wechat' ? authorizeWechatRoute : authorizeQQRoute;
  const redirect = `${window.location.origin}/?oauth=${provider}${then ? `&then=${then}` : ''}`;
  return `${baseUrl(client.config, 'tiger')}${route.path}?redirect=${encodeURIComponent(redirect)}`;
};

export const startOauth = (provider: OauthProvider, purpose: OauthPurpose): void => {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ provider, purpose }));
  } catch {
    // Without storage the return is taken as a sign-in.
  }
  window.location.assign(authorizeUrl(provider));
};

/** What the flow this tab started was for; read once. */
export const takePurpose = (provider: OauthProvider): OauthPurpose => {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const pending = raw ? (JSON.parse(raw) as { provider?: string; purpose?: string }) : undefined;
    return pending?.provider === provider && pending.purpose === 'bind' ? 'bind' : 'login';
  } catch {
    return 'login';
  }
};

/**
 * The WeChat / QQ redirect flow: to the provider's authorize page with a `state` this tab keeps, back
 * to `/?oauth=<provider>&code=…&state=…`, where the callback screen checks the state and finishes.
 */
import { PRODUCT } from '../session/account.ts';

export type OauthProvider = 'wechat' | 'qq';
export type OauthPurpose = 'login' | 'bind';

/** The providers' authorize pages; by default the server's development providers. */
const AUTHORIZE_URL: Record<OauthProvider, string> = {
  wechat: import.meta.env.VITE_WECHAT_AUTHORIZE_URL ?? '/dev/oauth/wechat/connect/qrconnect',
  qq: import.meta.env.VITE_QQ_AUTHORIZE_URL ?? '/dev/oauth/qq/oauth2.0/authorize',
};

const KEY = 'edupass.oauth';

interface Pending {
  state: string;
  provider: OauthProvider;
  purpose: OauthPurpose;
}

const randomState = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export const authorizeUrl = (provider: OauthProvider, purpose: OauthPurpose): string => {
  const state = randomState();
  sessionStorage.setItem(KEY, JSON.stringify({ state, provider, purpose } satisfies Pending));
  const redirect = `${window.location.origin}/?oauth=${provider}`;
  const url = new URL(AUTHORIZE_URL[provider], window.location.origin);
  if (provider === 'wechat') {
    url.search = new URLSearchParams({
      appid: String(PRODUCT.appid),
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'snsapi_login',
      state,
    }).toString();
    url.hash = 'wechat_redirect';
  } else {
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: String(PRODUCT.appid),
      redirect_uri: redirect,
      state,
    }).toString();
  }
  return url.toString();
};

export const startOauth = (provider: OauthProvider, purpose: OauthPurpose): void => {
  window.location.assign(authorizeUrl(provider, purpose));
};

/** The flow this tab started, if `state` matches it; used once. */
export const takePending = (provider: string, state: string | null): Pending | undefined => {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  if (!raw || !state) return undefined;
  try {
    const pending = JSON.parse(raw) as Pending;
    return pending.state === state && pending.provider === provider ? pending : undefined;
  } catch {
    return undefined;
  }
};

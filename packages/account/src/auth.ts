/**
 * The convenience surface: `init` once, then `getAuth().loginByPassword(…)`. It binds every call, so it
 * costs the whole SDK; import the free functions with `createAccountClient` to ship only what is used.
 */
import {
  authorizeQQ,
  authorizeWechat,
  bindPhone,
  bindQQ,
  bindWechat,
  changePassword,
  changePasswordByPhone,
  checkCommonCode,
  checkEmailCode,
  checkOauthBind,
  checkPhoneBind,
  checkResetCode,
  convertCookie,
  createOauthUser,
  getGradeList,
  getPrivacy,
  getProfile,
  initPassword,
  listAgreements,
  listAgreementsToSign,
  listLatestProtocols,
  listOauths,
  loginByPassword,
  loginByPasswordSecure,
  loginByPhone,
  loginByPhoneSilently,
  loginByQQ,
  loginByWechat,
  logout,
  rebindPhone,
  refreshTokens,
  registerByEmail,
  registerByPhone,
  resetPassword,
  revokeTokens,
  sendBindPhoneCode,
  sendCommonCode,
  sendEmailCode,
  sendLoginCode,
  sendOauthBindCode,
  sendPasswordUpdateCode,
  sendRebindCode,
  sendRegisterCode,
  sendResetCode,
  sendSilentLoginCode,
  sendVoiceCode,
  setUsername,
  signAgreements,
  unbindQQ,
  unbindWechat,
  updateProfile,
} from './calls/index.ts';
import type { AccountClient } from './client.ts';
import { createAccountClient } from './client.ts';
import type { AccountConfig } from './config.ts';
import { currentClient, setCurrentClient } from './instance.ts';
import { getSession, onChange } from './session.ts';

/**
 * Every call, for binding. Kept equal to the exports of calls/ by auth.test.ts. Listed rather than
 * `import * as`: a bundled namespace object costs ~50 bytes more gzip, past the 8 KB budget.
 */
const calls = {
  authorizeQQ,
  authorizeWechat,
  bindPhone,
  bindQQ,
  bindWechat,
  changePassword,
  changePasswordByPhone,
  checkCommonCode,
  checkEmailCode,
  checkOauthBind,
  checkPhoneBind,
  checkResetCode,
  convertCookie,
  createOauthUser,
  getGradeList,
  getPrivacy,
  getProfile,
  initPassword,
  listAgreements,
  listAgreementsToSign,
  listLatestProtocols,
  listOauths,
  loginByPassword,
  loginByPasswordSecure,
  loginByPhone,
  loginByPhoneSilently,
  loginByQQ,
  loginByWechat,
  logout,
  rebindPhone,
  refreshTokens,
  registerByEmail,
  registerByPhone,
  resetPassword,
  revokeTokens,
  sendBindPhoneCode,
  sendCommonCode,
  sendEmailCode,
  sendLoginCode,
  sendOauthBindCode,
  sendPasswordUpdateCode,
  sendRebindCode,
  sendRegisterCode,
  sendResetCode,
  sendSilentLoginCode,
  sendVoiceCode,
  setUsername,
  signAgreements,
  unbindQQ,
  unbindWechat,
  updateProfile,
  // The session helpers take the client first too, so they bind the same way.
  getSession,
  onChange,
};

type Calls = typeof calls;
type Bound<F> = F extends (client: AccountClient, ...args: infer A) => infer R ? (...args: A) => R : never;

/** Every call bound to one client. */
export type Auth = { [K in keyof Calls]: Bound<Calls[K]> } & { readonly client: AccountClient };

const auths = new WeakMap<AccountClient, Auth>();

/** The calls bound to `client`. */
export const bindAuth = (client: AccountClient): Auth => {
  let auth = auths.get(client);
  if (!auth) {
    const bound: Record<string, unknown> = { client };
    for (const [name, call] of Object.entries(calls) as [string, (c: AccountClient, ...args: unknown[]) => unknown][]) {
      bound[name] = (...args: unknown[]) => call(client, ...args);
    }
    auth = bound as Auth;
    auths.set(client, auth);
  }
  return auth;
};

/**
 * Checks the config, builds the client and makes it the one `getAuth` returns.
 * @throws AuthError code -1 'Auth init fail.Check init params.'
 */
export const init = (config: AccountConfig): Auth => {
  const client = createAccountClient(config);
  setCurrentClient(client);
  return bindAuth(client);
};

/** @throws AuthError 'Please run init correctly before getting the auth instance.' before `init`. */
export const getAuth = (): Auth => bindAuth(currentClient());

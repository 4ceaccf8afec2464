/**
 * The account SDK client of this site. Calls are imported one by one from '@edupass/account' so each
 * route ships only the calls it makes.
 */
import { createAccountClient } from '@edupass/account';

/**
 * The product this build signs in to: the server's PRODUCTS must list the pid, and `appid` is the
 * server's WeChat website app (WECHAT_APP_ID), sent with WeChat sign-in; by default the server's
 * development provider's.
 */
export const PRODUCT = {
  pid: import.meta.env.VITE_EDUPASS_PID ?? 'edupass',
  appid: import.meta.env.VITE_EDUPASS_APPID ?? 'wxedupassdev00001',
  product_code: import.meta.env.VITE_EDUPASS_PRODUCT_CODE ?? 'edupass',
} as const;

let lastCall = Date.now();

/** When this page last called the server: a staff session's idle time-out counts from its last call. */
export const lastCallAt = () => lastCall;

export const client = createAccountClient({
  ...PRODUCT,
  platform: 'web',
  // Token sets: the session is known at once from the cookies, with refresh and retry in the SDK.
  auth_version: '2',
  fetch: (input, init) => {
    lastCall = Date.now();
    return fetch(input, init);
  },
});

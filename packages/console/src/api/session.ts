/**
 * The operator's sign-in on the account SDK: password sign-in, the SDK's refresh and retry, sign-out.
 * Tokens live in this tab's sessionStorage (a reload keeps the operator signed in; another tab, or the
 * tab closed, does not) and are never shared with other tabs.
 */
import {
  type CaptchaProof,
  createAccountClient,
  loginByPassword,
  loginByPasswordSecure,
  revokeTokens,
  type Session,
} from '@edupass/account';
import { forgetTokens, sessionTokenStore } from '@edupass/account/custom-calls';
import { useStore } from '@edupass/ui-kit/store.ts';

/** The product the console signs operators in to (its captcha policy is the one that applies). */
export const CONSOLE_PRODUCT = {
  pid: import.meta.env.VITE_EDUPASS_PID ?? 'edupass',
  appid: import.meta.env.VITE_EDUPASS_APPID ?? 'wxedupassdev00001',
  product_code: import.meta.env.VITE_EDUPASS_PRODUCT_CODE ?? 'edupass',
} as const;

export const consoleClient = createAccountClient({
  ...CONSOLE_PRODUCT,
  platform: 'web',
  auth_version: '1',
  crossTab: false,
  storage: sessionTokenStore({ key: 'edupass.console.tokens' }),
});

/**
 * Why the last session went: the operator signed out, the server ended it (blocked, revoked, expired),
 * or it was idle past the time-out (`{ idle: minutes }`).
 */
let lastEnd: 'signed-out' | 'ended' | { idle: number } | undefined;
let signingOut = false;
let idleMinutes: number | undefined;
consoleClient.session.subscribe(() => {
  if (consoleClient.session.get().status !== 'signed-out') return;
  lastEnd = idleMinutes !== undefined ? { idle: idleMinutes } : signingOut ? 'signed-out' : 'ended';
  idleMinutes = undefined;
});
export const lastSessionEnd = () => lastEnd;

/** The operator's session, re-rendering on every change. */
export const useConsoleSession = (): Session => useStore(consoleClient.session);

/** Password sign-in through login/security with the captcha's proof (the plain one on a server without captcha). */
export const signInOperator = async (identity: string, password: string, proof?: CaptchaProof): Promise<void> => {
  await (proof
    ? loginByPasswordSecure(consoleClient, { identity, password }, proof)
    : loginByPassword(consoleClient, { identity, password }));
};

/** Ends the session on the server; the console signs out even when the server cannot be reached. */
export const signOutOperator = async (): Promise<void> => {
  signingOut = true;
  try {
    await revokeTokens(consoleClient).catch(() => forgetTokens(consoleClient));
  } finally {
    signingOut = false;
  }
};

/** The session went idle past the server's time-out: the server has ended it; forget its tokens here. */
export const endIdleSession = async (minutes: number): Promise<void> => {
  if (consoleClient.session.get().status !== 'signed-in') return;
  idleMinutes = minutes;
  await forgetTokens(consoleClient);
};

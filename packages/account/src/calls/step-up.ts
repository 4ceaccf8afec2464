import {
  endOtherSessionsRoute,
  type StepUpStatus,
  sendStepUpCodeRoute,
  stepUpByCodeRoute,
  stepUpByOauthRoute,
  stepUpByPasswordRoute,
  stepUpStatusRoute,
} from '@edupass/protocol';
import { type Call, type CaptchaCall, defineCall, type PlainCall } from '../call.ts';
import { nothing, object } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';

/**
 * Step-up: a call that changes the phone, the first password, the password by code or a third-party
 * link rejects with STEP_UP_REQUIRED (65) when the session's proof is older than the server's window.
 * Prove with the password, a code to the account's own phone (or e-mail), the second factor or a
 * round trip to the linked WeChat or QQ, then repeat the call.
 */
export const stepUpStatus: PlainCall<StepUpStatus> = /* @__PURE__ */ defineCall(withToken, stepUpStatusRoute, object);

/** Proves the session with the account's password. */
export const stepUpByPassword: Call<{ password: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  stepUpByPasswordRoute,
  nothing,
);

/** Sends a step-up code to the account's own phone (or e-mail, when it has no phone). */
export const sendStepUpCode: CaptchaCall<Record<string, never>, void> = /* @__PURE__ */ defineCall(
  withToken,
  sendStepUpCodeRoute,
  nothing,
);

/** Proves the session with that code. */
export const stepUpByCode: Call<{ captcha: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  stepUpByCodeRoute,
  nothing,
  byRules,
);

/** Proves the session with a WeChat or QQ round trip: the code and state of the provider's return. */
export const stepUpByOauth: Call<{ provider: 'wechat' | 'qq'; code: string; state: string }, void> =
  /* @__PURE__ */ defineCall(withToken, stepUpByOauthRoute, nothing);

/** Ends every other session of the user (offered after a change of phone, password or links). */
export const endOtherSessions: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, endOtherSessionsRoute, nothing);

import {
  authorizeQQRoute,
  authorizeWechatRoute,
  bindQQRoute,
  bindWechatRoute,
  checkOauthBindRoute,
  createOauthUserRoute,
  type LoginResult,
  listOauthsRoute,
  loginByQQRoute,
  loginByWechatRoute,
  type OauthItem,
  type OauthPending,
  sendOauthBindCodeRoute,
  unbindQQRoute,
  unbindWechatRoute,
} from '@edupass/protocol';
import { anonymous, type Call, type CaptchaCall, defineCall, type PlainCall } from '../call.ts';
import { array, nothing, oauthSignIn, object } from '../shapes.ts';
import { byRules } from '../validate.ts';
import { withToken } from '../with-token.ts';
import type { ProductSignInInput } from './sign-in.ts';
import type { AgreementInput, PhoneInput } from './sign-up.ts';

export interface OauthCodeInput extends AgreementInput, ProductSignInInput {
  /** The code the provider returned to the redirect URL. */
  code: string;
  /** The `state` the provider returned with the code (from `authorizeWechat` / `authorizeQQ`). */
  state?: string;
}

export interface OauthAuthorizeInput {
  /** The site page the provider comes back to with `code` and `state`. */
  redirect: string;
}

export interface OauthAuthorization {
  /** The provider's page to send the browser to. */
  url: string;
  state: string;
}

/** Starts WeChat sign-in: where to send the browser, and the state to bring back. */
export const authorizeWechat: Call<OauthAuthorizeInput, OauthAuthorization> = /* @__PURE__ */ defineCall(
  anonymous,
  authorizeWechatRoute,
  object,
);

/** Starts QQ sign-in. */
export const authorizeQQ: Call<OauthAuthorizeInput, OauthAuthorization> = /* @__PURE__ */ defineCall(
  anonymous,
  authorizeQQRoute,
  object,
);

/** A linked account signs in (`{user_info, auth}`); an unlinked one gets an `oauth_ticket` to bind or create. */
export type OauthLoginResult = LoginResult | OauthPending;

/** Signs in with a WeChat code (the config's appid goes with it). */
export const loginByWechat: Call<OauthCodeInput, OauthLoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  loginByWechatRoute,
  oauthSignIn,
);

/** Signs in with a QQ code. */
export const loginByQQ: Call<OauthCodeInput, OauthLoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  loginByQQRoute,
  oauthSignIn,
);

export interface OauthTicketInput {
  oauth_ticket: string;
}

/** Sends a code to the phone an unlinked third-party account is to bind. */
export const sendOauthBindCode: CaptchaCall<OauthTicketInput & PhoneInput, void> = /* @__PURE__ */ defineCall(
  anonymous,
  sendOauthBindCodeRoute,
  nothing,
  byRules,
);

export interface CreateOauthUserInput extends OauthTicketInput, AgreementInput, ProductSignInInput {
  /** With `captcha`: bind this phone (signing up when it is new). Without: a user of the third-party account alone. */
  phone_number?: string;
  captcha?: string;
}

/**
 * Binds a phone to, or creates, the user of an `oauth_ticket`, and signs in. A user of the third-party
 * account alone takes a passed captcha (scene `oauth`, no identity) where the server asks for one.
 */
export const createOauthUser: CaptchaCall<CreateOauthUserInput, OauthLoginResult> = /* @__PURE__ */ defineCall(
  anonymous,
  createOauthUserRoute,
  oauthSignIn,
  byRules,
);

/** Whether the account of an `oauth_ticket` exists. */
export const checkOauthBind: Call<OauthTicketInput, Record<string, unknown>> = /* @__PURE__ */ defineCall(
  anonymous,
  checkOauthBindRoute,
  object,
);

/** Binds a WeChat account to the signed-in user. */
export const bindWechat: Call<{ code: string; state?: string }, void> = /* @__PURE__ */ defineCall(
  withToken,
  bindWechatRoute,
  nothing,
);

export const unbindWechat: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, unbindWechatRoute, nothing);

/** Binds a QQ account to the signed-in user. */
export const bindQQ: Call<OauthCodeInput, void> = /* @__PURE__ */ defineCall(withToken, bindQQRoute, nothing);

export const unbindQQ: PlainCall<void> = /* @__PURE__ */ defineCall(withToken, unbindQQRoute, nothing);

/** The third-party account kinds and whether each is bound. */
export const listOauths: PlainCall<OauthItem[]> = /* @__PURE__ */ defineCall(withToken, listOauthsRoute, array);

/**
 * The route table: every call of the specification (§7), once. The server registers its handlers
 * from it, the SDK builds its requests from it, and the API docs are generated from it.
 */

import {
  ACCOUNTS_BASE,
  authorizeQQRoute,
  authorizeWechatRoute,
  bindPhoneRoute,
  bindQQRoute,
  bindWechatRoute,
  changePasswordByPhoneRoute,
  changePasswordRoute,
  checkCommonCodeRoute,
  checkEmailCodeRoute,
  checkOauthBindRoute,
  checkPhoneBindRoute,
  checkResetCodeRoute,
  convertCookieRoute,
  createOauthUserRoute,
  deleteTokensRoute,
  endOtherSessionsRoute,
  getGradeListRoute,
  getPrivacyRoute,
  getProfileRoute,
  initPasswordRoute,
  LEGACY_TOKENS_BASE,
  listAgreementsRoute,
  listAgreementsToSignRoute,
  listLatestProtocolsRoute,
  listOauthsRoute,
  loginByPasswordRoute,
  loginByPasswordSecureRoute,
  loginByPhoneRoute,
  loginByPhoneSilentlyRoute,
  loginByQQRoute,
  loginByWechatRoute,
  logoutRoute,
  readAgreementRoute,
  rebindPhoneRoute,
  refreshTokensRoute,
  registerByEmailRoute,
  registerByPhoneRoute,
  resetPasswordRoute,
  sendBindPhoneCodeRoute,
  sendCommonCodeRoute,
  sendEmailCodeRoute,
  sendLoginCodeRoute,
  sendOauthBindCodeRoute,
  sendPasswordUpdateCodeRoute,
  sendRebindCodeRoute,
  sendRegisterCodeRoute,
  sendResetCodeRoute,
  sendSilentLoginCodeRoute,
  sendStepUpCodeRoute,
  sendVoiceCodeRoute,
  setUsernameRoute,
  signAgreementsRoute,
  stepUpByCodeRoute,
  stepUpByPasswordRoute,
  stepUpStatusRoute,
  unbindQQRoute,
  unbindWechatRoute,
  updateProfileRoute,
} from './account-routes.ts';
import type { CAPTCHA_ID_HEADER, CAPTCHA_TICKET_HEADER } from './captcha.ts';
import {
  aliyunCheckRoute,
  captchaGraphRuleRoute,
  captchaRuleRoute,
  geetestRegisterRoute,
  geetestRegisterSlideRoute,
  geetestTicketRoute,
  geetestVerifyRoute,
  neteaseCheckRoute,
  nextdataCheckRoute,
  slideChallengeRoute,
  slideVerifyRoute,
  tencentCheckRoute,
  tencentTicketRoute,
} from './captcha-routes.ts';
import { consoleRoutes } from './console-routes.ts';
import {
  applicationRoutes,
  checkReturnRoute,
  completeInteractionRoute,
  denyInteractionRoute,
  interactionRoute,
} from './identity-routes.ts';
import { int, MS_RANGE, opt, s } from './route-fields.ts';
import {
  confirmTotpRoute,
  newRecoveryCodesRoute,
  passkeyRegistrationOptionsRoute,
  passkeySignInOptionsRoute,
  passkeySignInRoute,
  registerPasskeyRoute,
  removePasskeyRoute,
  removeTotpRoute,
  renamePasskeyRoute,
  secondFactorPasskeyOptionsRoute,
  secondFactorStatusRoute,
  startTotpRoute,
  stepUpBySecondFactorRoute,
  stepUpPasskeyOptionsRoute,
  verifySecondFactorRoute,
} from './second-factor-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';

export { INT_COLUMN, MS_RANGE } from './route-fields.ts';

import type { checks } from './validation.ts';

export type RuleName = keyof typeof checks;
export type HostKind = 'tiger' | 'platform';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body or query field: its JSON type and whether it must be there. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'integer[]' | 'string[]' | 'any';
export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** Longest accepted string, to refuse junk before any rule runs. */
  maxLength?: number;
  /** The validation rule of §5 the value must pass; its failure is the answer for a missing value too. */
  rule?: RuleName;
  /**
   * Bounds of an integer (or of each integer of a list). Without them an integer must fit a 32-bit
   * column ({@link INT_COLUMN}); fields holding unix milliseconds name the wider range.
   */
  min?: number;
  max?: number;
  /** Text that may span lines: tab, line feed and carriage return pass the control-character check. */
  multiline?: boolean;
}
export type Fields = Record<string, FieldSpec>;

/** A route as a client needs it: the `RouteSpec` without its documentation. */
export type WireRoute = Omit<RouteSpec, 'summary'>;

export interface RouteSpec {
  method: Method;
  /** Path relative to the host kind's base. */
  path: string;
  host: HostKind;
  /** 'token': needs a signed-in user; 'optional': reads the user when there is one; 'operator': needs the operator role. */
  auth: 'none' | 'token' | 'optional' | 'operator';
  summary: string;
  body?: Fields;
  query?: Fields;
  /** Path parameters (`:name` segments of `path`). */
  params?: Fields;
  /** Headers the call may carry besides the standard ones. */
  headers?: readonly (typeof CAPTCHA_TICKET_HEADER | typeof CAPTCHA_ID_HEADER)[];
  /** Success status: 200 with a body, or 204 with none. */
  status: 200 | 204;
}

const admin = <const E extends Partial<RouteSpec>>(method: Method, path: string, summary: string, extra: E) =>
  ({ method, path: `/admin/${path}`, host: 'tiger', auth: 'operator', summary, status: 200, ...extra }) as Omit<
    { method: Method; path: string; host: 'tiger'; auth: 'operator'; summary: string; status: 200 },
    keyof E
  > &
    E;
const userIdParam = { id: int() } as const;

/** The operator console's calls (operators only; each change is recorded in the audit log). */
export const adminRoutes = {
  searchUsers: admin('GET', 'users', 'Find users by phone, e-mail, username, nickname or id', {
    query: { q: opt(s(64)), cursor: opt(int()), limit: opt(int()) },
  }),
  getUser: admin('GET', 'users/:id', "A user's identities, agreements signed and sessions", { params: userIdParam }),
  blockUser: admin('POST', 'users/:id/block', 'Block a user and end their sessions', {
    params: userIdParam,
    status: 204,
  }),
  unblockUser: admin('POST', 'users/:id/unblock', 'Unblock a user', { params: userIdParam, status: 204 }),
  revokeUserSessions: admin('POST', 'users/:id/sessions/revoke', 'End every session of a user', {
    params: userIdParam,
    status: 204,
  }),
  listAllAgreements: admin('GET', 'agreements', 'Every version of every agreement', {}),
  publishAgreement: admin('POST', 'agreements', 'Publish a new version of an agreement', {
    body: {
      code: s(64),
      title: s(128),
      content: { ...s(100_000), multiline: true },
      url: opt(s(1024)),
      effective_at: opt({ ...int(), ...MS_RANGE }),
    },
  }),
  listAudit: admin('GET', 'audit', 'What operators did, newest first; `before` an entry id pages back', {
    query: { limit: opt(int()), before: opt(int()), action: opt(s(64)), operator: opt(int()) },
  }),
  listOperators: admin('GET', 'operators', 'Every operator: id, phone and name (for the audit filter)', {}),
  resetSecondFactor: admin('POST', 'users/:id/second-factor/reset', "Remove a user's second factors (audited)", {
    params: userIdParam,
    status: 204,
  }),
  ...consoleRoutes,
  ...webhookRoutes,
  ...applicationRoutes,
} as const satisfies Record<string, RouteSpec>;

/** Adds the API docs' summary to a route of account-routes.ts or captcha-routes.ts (which leave it out of client bundles). */
const described = <const R extends WireRoute>(route: R, summary: string) => ({ ...route, summary });

export const routes = {
  // Sign-up
  sendRegisterCode: described(sendRegisterCodeRoute, 'Send a sign-up code by SMS'),
  registerByPhone: described(registerByPhoneRoute, 'Sign up with phone, code and password'),
  sendEmailCode: described(sendEmailCodeRoute, 'Send a sign-up code by e-mail'),
  checkEmailCode: described(checkEmailCodeRoute, 'Check an e-mail code; returns a ticket'),
  registerByEmail: described(registerByEmailRoute, 'Sign up with an e-mail ticket and password'),
  // Sign-in
  sendLoginCode: described(sendLoginCodeRoute, 'Send a sign-in code by SMS'),
  loginByPhone: described(loginByPhoneRoute, 'Sign in with phone and code'),
  sendSilentLoginCode: described(sendSilentLoginCodeRoute, 'Send a code for sign-in-or-sign-up'),
  loginByPhoneSilently: described(
    loginByPhoneSilentlyRoute,
    'Sign in with phone and code, creating the account on first use',
  ),
  loginByPassword: described(loginByPasswordRoute, 'Sign in with phone, username or e-mail and password'),
  loginByPasswordSecure: described(loginByPasswordSecureRoute, 'Password sign-in that requires a captcha ticket'),
  logout: described(logoutRoute, 'Sign out and end the session'),
  // Third-party sign-in
  authorizeWechat: described(authorizeWechatRoute, 'Start WeChat sign-in'),
  authorizeQQ: described(authorizeQQRoute, 'Start QQ sign-in'),
  loginByWechat: described(loginByWechatRoute, 'Sign in with a WeChat code'),
  loginByQQ: described(loginByQQRoute, 'Sign in with a QQ code'),
  sendOauthBindCode: described(sendOauthBindCodeRoute, 'Send a code to the phone a third-party account binds'),
  createOauthUser: described(createOauthUserRoute, 'Bind a phone to, or create, the user of an oauth_ticket'),
  checkOauthBind: described(checkOauthBindRoute, 'Whether the account of an oauth_ticket exists'),
  bindWechat: described(bindWechatRoute, 'Bind a WeChat account'),
  unbindWechat: described(unbindWechatRoute, 'Unbind the WeChat account'),
  bindQQ: described(bindQQRoute, 'Bind a QQ account'),
  unbindQQ: described(unbindQQRoute, 'Unbind the QQ account'),
  listOauths: described(listOauthsRoute, 'Third-party accounts and whether each is bound'),
  // Username and password
  setUsername: described(setUsernameRoute, 'Set the username (once)'),
  initPassword: described(initPasswordRoute, 'Set the first password'),
  changePassword: described(changePasswordRoute, 'Change the password with the old one'),
  sendPasswordUpdateCode: described(sendPasswordUpdateCodeRoute, 'Send a code for changing the password'),
  changePasswordByPhone: described(changePasswordByPhoneRoute, 'Change the password with a code'),
  sendResetCode: described(sendResetCodeRoute, 'Send a code for resetting the password'),
  checkResetCode: described(checkResetCodeRoute, 'Check a reset code; returns a ticket'),
  resetPassword: described(resetPasswordRoute, 'Reset the password with a ticket'),
  // Phone
  sendBindPhoneCode: described(sendBindPhoneCodeRoute, 'Send a code to the phone to bind'),
  bindPhone: described(bindPhoneRoute, 'Bind a phone number'),
  checkPhoneBind: described(checkPhoneBindRoute, 'Whether a phone number can be bound (204) or why not'),
  sendRebindCode: described(sendRebindCodeRoute, 'Send a code to the new phone'),
  rebindPhone: described(rebindPhoneRoute, 'Change the bound phone number'),
  // Step-up before takeover-prone changes
  stepUpStatus: described(stepUpStatusRoute, 'Whether the session holds a recent proof, and the ways to give one'),
  stepUpByPassword: described(stepUpByPasswordRoute, 'Prove it is you with the password'),
  sendStepUpCode: described(sendStepUpCodeRoute, "Send a code to the account's own phone (or e-mail)"),
  stepUpByCode: described(stepUpByCodeRoute, 'Prove it is you with that code'),
  stepUpPasskeyOptions: described(stepUpPasskeyOptionsRoute, 'Options for a passkey proving it is you'),
  stepUpBySecondFactor: described(
    stepUpBySecondFactorRoute,
    'Prove it is you with an app code, a recovery code or a passkey',
  ),
  // Second factor
  secondFactorStatus: described(
    secondFactorStatusRoute,
    "The caller's authenticator app, passkeys and recovery codes left",
  ),
  startTotp: described(startTotpRoute, 'A new authenticator-app key with its QR code (step-up first)'),
  confirmTotp: described(confirmTotpRoute, 'Confirm the app with a code; the first factor also answers recovery codes'),
  removeTotp: described(removeTotpRoute, 'Remove the authenticator app (step-up first)'),
  passkeyRegistrationOptions: described(
    passkeyRegistrationOptionsRoute,
    'Options for registering a passkey (step-up first)',
  ),
  registerPasskey: described(registerPasskeyRoute, 'Register a passkey under a name'),
  renamePasskey: described(renamePasskeyRoute, 'Rename a passkey'),
  removePasskey: described(removePasskeyRoute, 'Remove a passkey (step-up first)'),
  newRecoveryCodes: described(newRecoveryCodesRoute, 'Ten new recovery codes, shown once (step-up first)'),
  secondFactorPasskeyOptions: described(
    secondFactorPasskeyOptionsRoute,
    "Options for a passkey answering a sign-in's challenge",
  ),
  verifySecondFactor: described(verifySecondFactorRoute, 'Finish a sign-in with its challenge and a second factor'),
  passkeySignInOptions: described(passkeySignInOptionsRoute, 'Options for signing in with a passkey alone'),
  passkeySignIn: described(passkeySignInRoute, 'Sign in with a passkey alone'),
  endOtherSessions: described(endOtherSessionsRoute, 'End every other session of the user'),
  // Codes for any purpose
  sendCommonCode: described(sendCommonCodeRoute, 'Send a general-purpose code'),
  checkCommonCode: described(checkCommonCodeRoute, 'Check a general-purpose code; returns a ticket'),
  sendVoiceCode: described(sendVoiceCodeRoute, 'Send a code by voice call'),
  // Profile
  getProfile: described(getProfileRoute, 'The user profile'),
  updateProfile: described(updateProfileRoute, 'Update profile fields'),
  getPrivacy: described(getPrivacyRoute, 'Username, e-mail, phone and whether a password is set'),
  getGradeList: described(getGradeListRoute, 'Grades by school stage'),
  // Agreements
  listAgreements: described(listAgreementsRoute, 'The current agreements'),
  readAgreement: described(readAgreementRoute, "A published agreement's text by code and version"),
  listAgreementsToSign: described(listAgreementsToSignRoute, 'Agreements the user has yet to sign'),
  signAgreements: described(signAgreementsRoute, 'Sign agreements'),
  listLatestProtocols: described(listLatestProtocolsRoute, 'The latest agreement of each code'),
  // Tokens
  refreshTokens: described(refreshTokensRoute, 'Exchange a refresh token for a new token set'),
  deleteTokens: described(deleteTokensRoute, 'Revoke the session of the presented token'),
  convertCookie: described(convertCookieRoute, 'Convert a legacy session cookie into a token set'),
  // Human verification (compatibility.md "Captcha rule"). The platform paths are the SDK's; the
  // tiger ones are the older main-backend spellings of the same calls.
  captchaRule: described(captchaRuleRoute, 'Which captcha to run, or a ticket to use now'),
  captchaGraphRule: described(captchaGraphRuleRoute, 'Which captcha to run (main backend)'),
  geetestRegister: described(geetestRegisterRoute, 'Geetest start parameters'),
  geetestRegisterSlide: described(geetestRegisterSlideRoute, 'Geetest start parameters (main backend)'),
  geetestVerify: described(geetestVerifyRoute, 'Exchange a Geetest result for a ticket'),
  geetestTicket: described(geetestTicketRoute, 'Exchange a Geetest result for a ticket (main backend)'),
  tencentCheck: described(tencentCheckRoute, 'Exchange a Tencent result for a ticket'),
  tencentTicket: described(tencentTicketRoute, 'Exchange a Tencent result for a ticket (main backend)'),
  neteaseCheck: described(neteaseCheckRoute, 'Exchange a NetEase result for a ticket'),
  nextdataCheck: described(nextdataCheckRoute, 'Exchange a NextData (Shumei) result for a ticket'),
  aliyunCheck: described(aliyunCheckRoute, 'Exchange an Aliyun result for a ticket and appid'),
  slideChallenge: described(slideChallengeRoute, "A fresh challenge of EduPass's slide puzzle"),
  slideVerify: described(slideVerifyRoute, 'Answer a slide puzzle; returns a ticket'),
  // Signing in to the platform's other products
  interaction: described(interactionRoute, 'The application an OpenID Connect sign-in is for, and what it asks'),
  completeInteraction: described(completeInteractionRoute, 'Finish an OpenID Connect sign-in as the signed-in user'),
  denyInteraction: described(denyInteractionRoute, 'Refuse what an application asks; it is told access was denied'),
  checkReturn: described(checkReturnRoute, 'Whether an address is one the sign-in screens may send the user back to'),
  ...adminRoutes,
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof routes;

/**
 * Other paths a route also answers at, with the same handler: spellings clients already deployed use.
 * The profile update is `PATCH info` on the wire and `PATCH profile` in the specification; the token
 * calls moved under the accounts base, and EduPass SDK builds from before call the old token base.
 */
export const routeAliases: Partial<Record<RouteName, readonly string[]>> = {
  updateProfile: [`${ACCOUNTS_BASE}/profile`],
  refreshTokens: [`${LEGACY_TOKENS_BASE}/refresh`],
  deleteTokens: [LEGACY_TOKENS_BASE],
  convertCookie: [`${LEGACY_TOKENS_BASE}/convert`],
};

type FieldValue<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'integer[]'
        ? number[]
        : T extends 'string[]'
          ? string[]
          : unknown;

/** The parsed shape of a field set: required fields present, the others optional. */
export type Parsed<F> = F extends Fields
  ? { [K in keyof F as F[K]['required'] extends true ? K : never]: FieldValue<F[K]['type']> } & {
      [K in keyof F as F[K]['required'] extends true ? never : K]?: FieldValue<F[K]['type']>;
    }
  : Record<string, never>;

export type BodyOf<N extends RouteName> = Parsed<(typeof routes)[N] extends { body: infer B } ? B : undefined>;
export type QueryOf<N extends RouteName> = Parsed<(typeof routes)[N] extends { query: infer Q } ? Q : undefined>;
export type ParamsOf<N extends RouteName> = Parsed<(typeof routes)[N] extends { params: infer P } ? P : undefined>;

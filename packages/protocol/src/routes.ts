/**
 * The route table: every call of the specification (§7), once. The server registers its handlers
 * from it, the SDK builds its requests from it, and the API docs are generated from it.
 */

import {
  agreementAnswer,
  agreementTextAnswer,
  avatarAnswer,
  captchaRuleAnswer,
  captchaTicketAnswer,
  geetestParamsAnswer,
  gradeStageAnswer,
  loginResultAnswer,
  oauthBindCheckAnswer,
  oauthItemAnswer,
  oauthPendingAnswer,
  oauthStartAnswer,
  privacyAnswer,
  slideChallengeAnswer,
  stepUpStatusAnswer,
  ticketAnswer,
  tokenSetAnswer,
  userInfoAnswer,
} from './account-answers.ts';
import {
  checkEmailCodeRoute,
  checkOauthBindRoute,
  checkResetCodeRoute,
  createOauthUserRoute,
  resetPasswordRoute,
  sendEmailCodeRoute,
  sendOauthBindCodeRoute,
  sendRegisterCodeRoute,
  sendResetCodeRoute,
} from './account-opening-routes.ts';
import {
  ACCOUNTS_BASE,
  authorizeQQRoute,
  authorizeWechatRoute,
  checkCommonCodeRoute,
  convertCookieRoute,
  deleteTokensRoute,
  getGradeListRoute,
  getPrivacyRoute,
  getProfileRoute,
  LEGACY_TOKENS_BASE,
  listAgreementsRoute,
  listAgreementsToSignRoute,
  listLatestProtocolsRoute,
  loginByPasswordRoute,
  loginByPasswordSecureRoute,
  loginByPhoneRoute,
  loginByPhoneSilentlyRoute,
  logoutRoute,
  readAgreementRoute,
  refreshTokensRoute,
  sendCommonCodeRoute,
  sendLoginCodeRoute,
  sendSilentLoginCodeRoute,
  sendVoiceCodeRoute,
  signAgreementsRoute,
  updateProfileRoute,
} from './account-routes.ts';
import {
  bindPhoneRoute,
  bindQQRoute,
  bindWechatRoute,
  changePasswordByPhoneRoute,
  changePasswordRoute,
  checkPhoneBindRoute,
  deleteAccountRoute,
  endOtherSessionsRoute,
  initPasswordRoute,
  keepAccountRoute,
  listOauthsRoute,
  rebindPhoneRoute,
  sendBindPhoneCodeRoute,
  sendPasswordUpdateCodeRoute,
  sendRebindCodeRoute,
  sendStepUpCodeRoute,
  setUsernameRoute,
  stepUpByCodeRoute,
  stepUpByOauthRoute,
  stepUpByPasswordRoute,
  stepUpStatusRoute,
  unbindQQRoute,
  unbindWechatRoute,
  uploadAvatarRoute,
} from './account-settings-routes.ts';
import { schoolInviteTable } from './address-book-routes.ts';
import { adminRoutes } from './admin-routes.ts';
import { type Answer, either, list, NO_CONTENT, type Schema } from './answer-schema.ts';
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
import { dataExportTable } from './data-export-routes.ts';
import { described } from './described-route.ts';
import { eduTable } from './edu-routes.ts';
import { emailTable } from './email-table.ts';
import { adultCheckTable } from './guardian-checks-routes.ts';
import { guardianLinkTable } from './guardian-link-routes.ts';
import { guardianTable } from './guardian-routes.ts';
import { interactionDetailsAnswer, interactionOutcomeAnswer, returnCheckAnswer } from './identity-answers.ts';
import {
  checkReturnRoute,
  completeInteractionRoute,
  denyInteractionRoute,
  interactionRoute,
} from './identity-routes.ts';
import { loginByQQRoute, loginByWechatRoute } from './oauth-sign-in-routes.ts';
import { pupilMergeTable } from './pupil-merge-routes.ts';
import { retentionTable } from './retention-routes.ts';
import { rightsUserTable } from './rights-routes.ts';
import { schoolSignInTable } from './school-sign-in-routes.ts';
import { secondFactorTable } from './second-factor-table.ts';
import { sessionTable } from './session-table.ts';
import { registerByEmailWithAgeRoute, registerByPhoneWithAgeRoute } from './sign-up-age-routes.ts';

export { adminRoutes, usageAdminRoutes } from './admin-routes.ts';
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

/** A route as a client needs it: the `RouteSpec` without its documentation and answer schema. */
export type WireRoute = Omit<RouteSpec, 'summary' | 'answer'>;

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
  /** The largest request body in bytes, where a route takes more than the 16 KiB of the others. */
  bodyLimit?: number;
  /**
   * What it answers on success (answer-schema.ts): the API docs' response schema and, through
   * {@link AnswerOf}, the type its server handler returns. `NO_CONTENT` for a 204.
   */
  answer: Schema<unknown>;
}

const signIn = loginResultAnswer;
const none = NO_CONTENT;
const agreements = list(agreementAnswer);

export const routes = {
  // Sign-up
  sendRegisterCode: described(sendRegisterCodeRoute, 'Send a sign-up code by SMS', none),
  registerByPhone: described(registerByPhoneWithAgeRoute, 'Sign up with phone, code and password', signIn),
  sendEmailCode: described(sendEmailCodeRoute, 'Send a sign-up code by e-mail', none),
  checkEmailCode: described(checkEmailCodeRoute, 'Check an e-mail code; returns a ticket', ticketAnswer),
  registerByEmail: described(registerByEmailWithAgeRoute, 'Sign up with an e-mail ticket and password', signIn),
  // Sign-in
  sendLoginCode: described(sendLoginCodeRoute, 'Send a sign-in code by SMS', none),
  loginByPhone: described(loginByPhoneRoute, 'Sign in with phone and code', signIn),
  sendSilentLoginCode: described(sendSilentLoginCodeRoute, 'Send a code for sign-in-or-sign-up', none),
  loginByPhoneSilently: described(
    loginByPhoneSilentlyRoute,
    'Sign in with phone and code, creating the account on first use',
    signIn,
  ),
  loginByPassword: described(loginByPasswordRoute, 'Sign in with phone, username or e-mail and password', signIn),
  loginByPasswordSecure: described(
    loginByPasswordSecureRoute,
    'Password sign-in that requires a captcha ticket',
    signIn,
  ),
  logout: described(logoutRoute, 'Sign out and end the session', none),
  // Third-party sign-in
  authorizeWechat: described(authorizeWechatRoute, 'Start WeChat sign-in', oauthStartAnswer),
  authorizeQQ: described(authorizeQQRoute, 'Start QQ sign-in', oauthStartAnswer),
  loginByWechat: described(loginByWechatRoute, 'Sign in with a WeChat code', either(signIn, oauthPendingAnswer)),
  loginByQQ: described(loginByQQRoute, 'Sign in with a QQ code', either(signIn, oauthPendingAnswer)),
  sendOauthBindCode: described(sendOauthBindCodeRoute, 'Send a code to the phone a third-party account binds', none),
  createOauthUser: described(createOauthUserRoute, 'Bind a phone to, or create, the user of an oauth_ticket', signIn),
  checkOauthBind: described(checkOauthBindRoute, 'Whether the account of an oauth_ticket exists', oauthBindCheckAnswer),
  bindWechat: described(bindWechatRoute, 'Bind a WeChat account', none),
  unbindWechat: described(unbindWechatRoute, 'Unbind the WeChat account', none),
  bindQQ: described(bindQQRoute, 'Bind a QQ account', none),
  unbindQQ: described(unbindQQRoute, 'Unbind the QQ account', none),
  listOauths: described(listOauthsRoute, 'Third-party accounts and whether each is bound', list(oauthItemAnswer)),
  // Username and password
  setUsername: described(setUsernameRoute, 'Set the username (once)', none),
  initPassword: described(initPasswordRoute, 'Set the first password', none),
  changePassword: described(changePasswordRoute, 'Change the password with the old one', none),
  sendPasswordUpdateCode: described(sendPasswordUpdateCodeRoute, 'Send a code for changing the password', none),
  changePasswordByPhone: described(changePasswordByPhoneRoute, 'Change the password with a code', none),
  sendResetCode: described(sendResetCodeRoute, 'Send a code for resetting the password', none),
  checkResetCode: described(checkResetCodeRoute, 'Check a reset code; returns a ticket', ticketAnswer),
  resetPassword: described(resetPasswordRoute, 'Reset the password with a ticket', none),
  // E-mail: reset, sign-in, add or change
  ...emailTable,
  // Phone
  sendBindPhoneCode: described(sendBindPhoneCodeRoute, 'Send a code to the phone to bind', none),
  bindPhone: described(bindPhoneRoute, 'Bind a phone number', none),
  checkPhoneBind: described(checkPhoneBindRoute, 'Whether a phone number can be bound (204) or why not', none),
  sendRebindCode: described(sendRebindCodeRoute, 'Send a code to the new phone', none),
  rebindPhone: described(rebindPhoneRoute, 'Change the bound phone number', none),
  // Step-up before takeover-prone changes
  stepUpStatus: described(
    stepUpStatusRoute,
    'Whether the session holds a recent proof, and the ways to give one',
    stepUpStatusAnswer,
  ),
  stepUpByPassword: described(stepUpByPasswordRoute, 'Prove it is you with the password', none),
  sendStepUpCode: described(sendStepUpCodeRoute, "Send a code to the account's own phone (or e-mail)", none),
  stepUpByCode: described(stepUpByCodeRoute, 'Prove it is you with that code', none),
  stepUpByOauth: described(stepUpByOauthRoute, 'Prove it is you with a WeChat or QQ round trip', none),
  ...secondFactorTable,
  endOtherSessions: described(endOtherSessionsRoute, 'End every other session of the user', none),
  ...sessionTable,
  // Codes for any purpose
  sendCommonCode: described(sendCommonCodeRoute, 'Send a general-purpose code', none),
  checkCommonCode: described(checkCommonCodeRoute, 'Check a general-purpose code; returns a ticket', ticketAnswer),
  sendVoiceCode: described(sendVoiceCodeRoute, 'Send a code by voice call', none),
  // Profile
  getProfile: described(getProfileRoute, 'The user profile', userInfoAnswer),
  updateProfile: described(updateProfileRoute, 'Update profile fields', none),
  uploadAvatar: described(uploadAvatarRoute, 'Upload a profile picture (checked and re-encoded)', avatarAnswer),
  deleteAccount: described(
    deleteAccountRoute,
    'Delete the account and everything naming it (needs a recent proof; frozen first for the grace period)',
    none,
  ),
  keepAccount: described(
    keepAccountRoute,
    'Keep an account waiting to be deleted, with the ticket of a sign-in to it, and finish that sign-in',
    signIn,
  ),
  getPrivacy: described(getPrivacyRoute, 'Username, e-mail, phone and whether a password is set', privacyAnswer),
  getGradeList: described(getGradeListRoute, 'Grades by school stage', list(gradeStageAnswer)),
  // Agreements
  listAgreements: described(listAgreementsRoute, 'The current agreements', agreements),
  readAgreement: described(readAgreementRoute, "A published agreement's text by code and version", agreementTextAnswer),
  listAgreementsToSign: described(listAgreementsToSignRoute, 'Agreements the user has yet to sign', agreements),
  signAgreements: described(signAgreementsRoute, 'Sign agreements', none),
  listLatestProtocols: described(listLatestProtocolsRoute, 'The latest agreement of each code', agreements),
  // Tokens
  refreshTokens: described(refreshTokensRoute, 'Exchange a refresh token for a new token set', tokenSetAnswer),
  deleteTokens: described(deleteTokensRoute, 'Revoke the session of the presented token', none),
  convertCookie: described(convertCookieRoute, 'Convert a legacy session cookie into a token set', tokenSetAnswer),
  // Human verification (compatibility.md "Captcha rule"). The platform paths are the SDK's; the
  // tiger ones are the older main-backend spellings of the same calls.
  captchaRule: described(captchaRuleRoute, 'Which captcha to run, or a ticket to use now', captchaRuleAnswer),
  captchaGraphRule: described(captchaGraphRuleRoute, 'Which captcha to run (main backend)', captchaRuleAnswer),
  geetestRegister: described(geetestRegisterRoute, 'Geetest start parameters', geetestParamsAnswer),
  geetestRegisterSlide: described(
    geetestRegisterSlideRoute,
    'Geetest start parameters (main backend)',
    geetestParamsAnswer,
  ),
  geetestVerify: described(geetestVerifyRoute, 'Exchange a Geetest result for a ticket', captchaTicketAnswer),
  geetestTicket: described(
    geetestTicketRoute,
    'Exchange a Geetest result for a ticket (main backend)',
    captchaTicketAnswer,
  ),
  tencentCheck: described(tencentCheckRoute, 'Exchange a Tencent result for a ticket', captchaTicketAnswer),
  tencentTicket: described(
    tencentTicketRoute,
    'Exchange a Tencent result for a ticket (main backend)',
    captchaTicketAnswer,
  ),
  neteaseCheck: described(neteaseCheckRoute, 'Exchange a NetEase result for a ticket', captchaTicketAnswer),
  nextdataCheck: described(nextdataCheckRoute, 'Exchange a NextData (Shumei) result for a ticket', captchaTicketAnswer),
  aliyunCheck: described(aliyunCheckRoute, 'Exchange an Aliyun result for a ticket and appid', captchaTicketAnswer),
  slideChallenge: described(slideChallengeRoute, "A fresh challenge of EduPass's slide puzzle", slideChallengeAnswer),
  slideVerify: described(slideVerifyRoute, 'Answer a slide puzzle; returns a ticket', ticketAnswer),
  // Signing in to the platform's other products
  interaction: described(
    interactionRoute,
    'The application an OpenID Connect sign-in is for, and what it asks',
    interactionDetailsAnswer,
  ),
  completeInteraction: described(
    completeInteractionRoute,
    'Finish an OpenID Connect sign-in as the signed-in user',
    interactionOutcomeAnswer,
  ),
  denyInteraction: described(
    denyInteractionRoute,
    'Refuse what an application asks; it is told access was denied',
    interactionOutcomeAnswer,
  ),
  checkReturn: described(
    checkReturnRoute,
    'Whether an address is one the sign-in screens may send the user back to',
    returnCheckAnswer,
  ),
  // Schools, classes and the pupil accounts teachers manage
  ...eduTable,
  ...pupilMergeTable,
  // Signing in with a school's own system
  ...schoolSignInTable,
  // Children under 14 and their guardians' consent
  ...guardianTable,
  // Guardians linked to children, and minor mode
  ...guardianLinkTable,
  ...schoolInviteTable,
  ...adultCheckTable,
  // A copy of a person's data
  ...dataExportTable,
  ...rightsUserTable,
  // How long each kind of record is kept
  ...retentionTable,
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
/** What a route answers on success (`void` for a 204). */
export type AnswerOf<N extends RouteName> = Answer<(typeof routes)[N]['answer']>;

/**
 * The error catalogue: every code the product can produce, written once.
 *
 * - `ClientCode` numbers are what SDKs throw (`error.code`) and what the server reports as
 *   `error_number`. 0..55 are the specification's; 56 and up are EduPass's own.
 * - `SERVER_ERRORS` maps each server `error_code` to its HTTP status, client number and message.
 */

import { CORE_CLIENT_CODES, CoreCode, coreCodeName, type NumberedCodes, type TupleOf } from './client-codes.ts';
import { SCHOOL_STAFF_CLIENT_CODES, schoolStaffCodeName } from './school-staff-codes.ts';

/**
 * Every client code: the core list (client-codes.ts, 0–75: what the SDKs' own calls meet) and the
 * education and staff group after it (school-staff-codes.ts, 76 on). A code's number is its place in
 * the two lists read one after the other; SDK cores carry the first alone.
 */
/** Each client code's number; INIT_PARAMS_INVALID (-1) is the one before the lists. */
export const ClientCode: typeof CoreCode &
  NumberedCodes<typeof SCHOOL_STAFF_CLIENT_CODES, TupleOf<(typeof CORE_CLIENT_CODES)['length']>> =
  /* @__PURE__ */ Object.assign(
    {},
    CoreCode,
    /* @__PURE__ */ Object.fromEntries(
      /* @__PURE__ */ SCHOOL_STAFF_CLIENT_CODES.map((name, i) => [name, CORE_CLIENT_CODES.length + i]),
    ) as NumberedCodes<typeof SCHOOL_STAFF_CLIENT_CODES, TupleOf<(typeof CORE_CLIENT_CODES)['length']>>,
  );

export type ClientCodeName = keyof typeof ClientCode;
export type ClientCodeNumber = (typeof ClientCode)[ClientCodeName];

/** The catalogue name of a client code number (`ClientCode` read backwards). */
export const clientCodeName = (code: number): ClientCodeName | undefined =>
  coreCodeName(code) ?? schoolStaffCodeName(code);

export interface ServerErrorSpec {
  /** HTTP status the server answers with. */
  status: number;
  /** Client code (`error_number`) this server code maps to. */
  client: ClientCodeName;
  /** Message sent as `error_message` unless the place that raises it gives a more precise one. */
  message: string;
  /** `error_category` in the wire error shape. */
  category: 'account' | 'auth' | 'captcha' | 'oauth' | 'request' | 'server';
}

/* @__NO_SIDE_EFFECTS__ */
const e = (
  status: number,
  client: ClientCodeName,
  category: ServerErrorSpec['category'],
  message: string,
): ServerErrorSpec => ({ status, client, category, message });

/** E_1's message when the server has nothing more precise to say (clients show their own sentence alone then). */
export const INVALID_REQUEST_MESSAGE = 'Invalid request.';

export const SERVER_ERRORS = {
  AC3_0: e(400, 'PHONE_REGISTERED', 'account', 'The phone number is already registered.'),
  AC3_1: e(400, 'PHONE_UNREGISTERED', 'account', 'The phone number is not registered.'),
  AC3_2: e(403, 'USER_NOT_EXIST_OR_WRONG_PASSWORD', 'account', 'User does not exist or the password is wrong.'),
  AC3_3: e(404, 'USER_NOT_EXIST', 'account', 'User does not exist.'),
  AC3_4: e(400, 'CANNOT_SET_FUTURE_DATE', 'account', 'Cannot set a date in the future.'),
  AC3_5: e(400, 'CANNOT_SET_USERNAME_REPEATEDLY', 'account', 'The username can be set only once.'),
  AC3_6: e(409, 'USERNAME_EXISTS', 'account', 'The username is already taken.'),
  AC3_7: e(400, 'NEED_BIND_PHONE', 'account', 'Bind a phone number first.'),
  AC3_8: e(400, 'CODE_MUST_GO_TO_BOUND_PHONE', 'account', 'The code must be sent to the bound phone number.'),
  AC3_9: e(400, 'WRONG_OLD_PASSWORD', 'account', 'The old password is wrong.'),
  AC3_10: e(400, 'PASSWORDS_DIFFER', 'account', 'Password is not equal to confirmed password.'),
  AC3_11: e(400, 'INIT_PASSWORD_ONCE', 'account', 'The initial password can be set only once.'),
  AC3_12: e(400, 'IDENTITY_MUST_REMAIN', 'account', 'At least one of phone, username or e-mail must remain.'),
  AC3_13: e(400, 'VERIFY_CAPTCHA_FAIL', 'account', 'The verification code is wrong or has expired.'),
  AC3_14: e(400, 'PHONE_BOUND', 'account', 'A phone number is already bound to this account.'),
  AC3_15: e(400, 'OLD_PHONE_WRONG', 'account', 'The old phone number is wrong.'),
  AC3_16: e(400, 'ILLEGAL_OPERATION', 'account', 'Illegal operation.'),
  AC3_17: e(400, 'CANNOT_REBIND_SAME_PHONE', 'account', 'Cannot rebind the same phone number.'),
  AC3_18: e(400, 'ILLEGAL_OAUTH_TICKET', 'oauth', 'The oauth_ticket is invalid or has expired.'),
  AC3_19: e(400, 'INVALID_THIRD_PARTY_KIND', 'oauth', 'Unknown kind of third-party account.'),
  AC3_20: e(409, 'THIRD_PARTY_BOUND_ELSEWHERE', 'oauth', 'This third-party account is bound to another account.'),
  AC3_21: e(409, 'THIRD_PARTY_KIND_ALREADY_BOUND', 'oauth', 'A third-party account of this kind is already bound.'),
  AC3_22: e(400, 'NEED_PHONE_OR_PASSWORD', 'oauth', 'Bind a phone number or set a username and password first.'),
  AC3_23: e(429, 'SEND_CAPTCHA_TOO_FREQUENTLY', 'account', 'Codes are requested too frequently. Try again later.'),
  AC3_24: e(400, 'ILLEGAL_PID', 'request', 'Illegal pid.'),
  AC3_25: e(409, 'NICKNAME_EXISTS', 'account', 'The nickname is already taken.'),
  AC3_26: e(409, 'PHONE_BOUND_BY_OTHER_ACCOUNT', 'account', 'The phone number is bound to another account.'),
  AC3_27: e(400, 'WRONG_TICKET', 'account', 'Wrong ticket.'),
  AC3_44: e(403, 'ACCOUNT_BLOCKED', 'account', 'The account is blocked.'),
  AC3_48: e(429, 'CAPTCHA_SEND_LIMIT', 'account', 'The daily limit of codes is reached. Try again tomorrow.'),
  AC3_61: e(409, 'EMAIL_REGISTERED', 'account', 'The e-mail address is already registered.'),
  C_1: e(502, 'QQ_ERROR', 'oauth', 'QQ sign-in failed.'),
  C_2: e(502, 'WECHAT_ERROR', 'oauth', 'WeChat sign-in failed.'),
  GCAP_1: e(400, 'INVALID_CAPTCHA', 'captcha', 'Invalid Ticket.'),
  '10000000': e(401, 'TOKEN_INVALID', 'auth', 'Access token is invalid.'),
  '10000001': e(401, 'REFRESH_TOKEN_INVALID', 'auth', 'Refresh token is invalid.'),
  '10000002': e(401, 'COOKIE_INVALID', 'auth', 'The session cookie is invalid.'),
  '10017001': e(400, 'CAPTCHA_APPID_NOT_FOUND', 'captcha', 'Captcha appid not found.'),
  '10017002': e(400, 'NO_CAPTCHA_RULE', 'captcha', 'No captcha rule.'),
  '10017003': e(400, 'TENCENT_CAPTCHA_FAIL', 'captcha', 'Tencent captcha failure.'),
  '10017004': e(400, 'GEETEST_CAPTCHA_FAIL', 'captcha', 'Geetest captcha failure.'),
  // EduPass's own.
  /** Not signed in, or the session was ended. */
  E_0: e(403, 'NO_TOKEN', 'auth', 'Not signed in. Please login.'),
  /** The request itself is malformed; `error_number` names the failed rule where one applies. */
  E_1: e(400, 'INVALID_REQUEST', 'request', INVALID_REQUEST_MESSAGE),
  E_2: e(404, 'NOT_FOUND', 'request', 'Not found.'),
  E_3: e(500, 'SERVER_ERROR', 'server', 'Internal server error.'),
  E_4: e(403, 'FORBIDDEN', 'auth', 'Operator role required.'),
  E_5: e(429, 'LOGIN_LOCKED', 'account', 'Too many failed attempts. The account is locked for a while.'),
  E_6: e(502, 'DELIVERY_FAILED', 'server', 'The code could not be delivered. Try again later.'),
  E_7: e(
    403,
    'STEP_UP_REQUIRED',
    'auth',
    'Confirm it is you first: verify your password or a code sent to your current phone or e-mail.',
  ),
  E_8: e(400, 'PASSWORD_TOO_COMMON', 'account', 'This password is too common. Choose a less guessable one.'),
  E_9: e(403, 'ORIGIN_NOT_ALLOWED', 'request', 'Cross-site request refused.'),
  E_10: e(503, 'SERVICE_UNAVAILABLE', 'server', 'The service is temporarily unavailable. Try again shortly.'),
  E_11: e(401, 'MFA_REQUIRED', 'auth', 'Enter the code from your authenticator app or use a passkey.'),
  E_12: e(400, 'MFA_INVALID', 'auth', 'The verification code is wrong or was already used.'),
  E_13: e(400, 'PASSKEY_INVALID', 'auth', 'The passkey could not be verified.'),
  E_14: e(403, 'MFA_SETUP_REQUIRED', 'auth', 'Set up a second factor to continue.'),
  E_15: e(403, 'AGREEMENTS_UNSIGNED', 'account', 'Read and accept the updated agreements to continue.'),
  E_16: e(
    403,
    'ACCOUNT_DELETING',
    'account',
    'This account is waiting to be deleted. Confirm to keep it, or let it be deleted on the date given.',
  ),
  E_17: e(403, 'PASSWORD_CHANGE_REQUIRED', 'account', 'Choose your own password first.'),
  E_18: e(409, 'CLASS_NAME_TAKEN', 'request', 'Another class of the school has this name in this school year.'),
  E_19: e(409, 'ACCOUNTS_NOT_MERGEABLE', 'account', 'These two accounts cannot be merged.'),
  /** The place that raises it says which rule of the staff password policy the password missed. */
  E_20: e(400, 'PASSWORD_POLICY', 'account', 'This password does not meet the staff password policy.'),
  E_21: e(403, 'PASSWORD_EXPIRED', 'account', 'Your password has expired. Change it to continue.'),
} as const satisfies Record<string, ServerErrorSpec>;

export type ServerCode = keyof typeof SERVER_ERRORS;

export const isServerCode = (code: unknown): code is ServerCode =>
  typeof code === 'string' && Object.hasOwn(SERVER_ERRORS, code);

/** The wire error shape every non-2xx answer carries. */
export interface WireError {
  error_code: ServerCode | (string & {});
  error_message: string;
  error_number: number;
  error_category: string;
  log_uuid: string;
  /** Seconds until a refusal that lifts by itself does (a code send or slide puzzle asked too often, a locked sign-in). */
  retry_after?: number;
}

// Client-side messages quoted by the specification, each its own export so that a bundle carries only
// the ones it throws (a password-login-only import throws neither "not initialised" nor the "NO Token" pair).
export const NOT_INITIALISED_MESSAGE = 'Please run init correctly before getting the auth instance.';
export const INIT_FAIL_MESSAGE = 'Auth init fail.Check init params.';
export const NO_TOKEN_MESSAGE = 'NO Token. Please login.';
export const NO_TOKEN_EXPIRED_MESSAGE = 'NO Token(cookie might have been expired). Please login.';
export const NETWORK_MESSAGE = 'Network error.';
export const timeoutMessage = (ms: number) => `ECONNABORTED:timeout of ${ms} ms exceeded`;

/** The client-side messages quoted by the specification, together. */
export const CLIENT_MESSAGES = {
  notInitialised: NOT_INITIALISED_MESSAGE,
  initFail: INIT_FAIL_MESSAGE,
  noToken: NO_TOKEN_MESSAGE,
  noTokenExpired: NO_TOKEN_EXPIRED_MESSAGE,
  network: NETWORK_MESSAGE,
  timeout: timeoutMessage,
} as const;

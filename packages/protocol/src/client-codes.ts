/**
 * The client codes the SDKs' own calls meet, from 0 up in number order: a code's number is its place in
 * this list. Written as a list so that an SDK carries each name once instead of name–number pairs.
 *
 * The list is closed at 75: codes added after it (the education layer's and the staff controls', 76 on)
 * live in school-staff-codes.ts, which the SDK cores never import, so a new code there grows no SDK core
 * (the size tests of the account and captcha SDKs hold that). errors.ts joins both into `ClientCode`, the
 * catalogue the server and the web client read; errors.test.ts pins every number clients know.
 */
export const CORE_CLIENT_CODES = [
  'INVALID_PHONE', // 0
  'INVALID_CAPTCHA', // 1
  'INVALID_PASSWORD', // 2
  'INVALID_USERNAME', // 3
  'INVALID_NICKNAME', // 4
  'INVALID_FULLNAME', // 5
  'INVALID_QQ', // 6
  'INVALID_DESCRIPTION', // 7
  'INVALID_SEX', // 8
  'INVALID_BIRTHDAY', // 9
  'PASSWORD_MISMATCH', // 10
  'NO_TOKEN', // 11
  'REQUEST_TIMEOUT', // 12
  'REQUEST_ERROR', // 13
  'PHONE_REGISTERED', // 14
  'PHONE_UNREGISTERED', // 15
  'USER_NOT_EXIST_OR_WRONG_PASSWORD', // 16
  'USER_NOT_EXIST', // 17
  'CANNOT_SET_FUTURE_DATE', // 18
  'CANNOT_SET_USERNAME_REPEATEDLY', // 19
  'USERNAME_EXISTS', // 20
  'NEED_BIND_PHONE', // 21
  'CODE_MUST_GO_TO_BOUND_PHONE', // 22
  'WRONG_OLD_PASSWORD', // 23
  'PASSWORDS_DIFFER', // 24
  'INIT_PASSWORD_ONCE', // 25
  'IDENTITY_MUST_REMAIN', // 26
  'VERIFY_CAPTCHA_FAIL', // 27
  'PHONE_BOUND', // 28
  'OLD_PHONE_WRONG', // 29
  'ILLEGAL_OPERATION', // 30
  'CANNOT_REBIND_SAME_PHONE', // 31
  'ILLEGAL_OAUTH_TICKET', // 32
  'INVALID_THIRD_PARTY_KIND', // 33
  'THIRD_PARTY_BOUND_ELSEWHERE', // 34
  'THIRD_PARTY_KIND_ALREADY_BOUND', // 35
  'NEED_PHONE_OR_PASSWORD', // 36
  'SEND_CAPTCHA_TOO_FREQUENTLY', // 37
  'ILLEGAL_PID', // 38
  'NICKNAME_EXISTS', // 39
  'PHONE_BOUND_BY_OTHER_ACCOUNT', // 40
  'QQ_ERROR', // 41
  'WECHAT_ERROR', // 42
  'TOKEN_INVALID', // 43
  'REFRESH_TOKEN_INVALID', // 44
  'WRONG_TICKET', // 45
  'COOKIE_INVALID', // 46
  'CAPTCHA_APPID_NOT_FOUND', // 47
  'NO_CAPTCHA_RULE', // 48
  'TENCENT_CAPTCHA_FAIL', // 49
  'GEETEST_CAPTCHA_FAIL', // 50
  'INVALID_EMAIL', // 51
  'EMAIL_REGISTERED', // 52
  'ACCOUNT_BLOCKED', // 53
  'CAPTCHA_SEND_LIMIT', // 54
  'EMPTY_AGREEMENT_IDS', // 55
  // EduPass's own, past the specification's range.
  'INVALID_REQUEST', // 56
  'NOT_FOUND', // 57
  'SERVER_ERROR', // 58
  'FORBIDDEN', // 59
  'LOGIN_LOCKED', // 60
  'DELIVERY_FAILED', // 61
  // The human-verification widget or its server check said no ('incorrect captcha checking', '验证失败').
  'CAPTCHA_REJECTED', // 62
  // The widget could not run: script, parameters or vendor error ('some error occurred', 'fatal error occurred', '验证错误').
  'CAPTCHA_ERROR', // 63
  // The user closed the verification overlay.
  'CAPTCHA_CLOSED', // 64
  // A sensitive change needs a recent proof that it is the account's owner (password or a code to the current phone/e-mail).
  'STEP_UP_REQUIRED', // 65
  // The new password is on the list of the most common passwords.
  'PASSWORD_TOO_COMMON', // 66
  // A cookie-authenticated write came from an origin this site does not trust.
  'ORIGIN_NOT_ALLOWED', // 67
  // The server is overloaded or a service it needs is down; retry after `Retry-After`.
  'SERVICE_UNAVAILABLE', // 68
  // The password (or first step) was right; the account needs its second factor to finish signing in.
  'MFA_REQUIRED', // 69
  // The authenticator code, recovery code or second-factor challenge was wrong, used or expired.
  'MFA_INVALID', // 70
  // The passkey's answer could not be verified (unknown credential, wrong origin, bad signature).
  'PASSKEY_INVALID', // 71
  // This account must set up a second factor before it can continue (operators by default).
  'MFA_SETUP_REQUIRED', // 72
  // Agreements in effect are unsigned: a sign-in does not finish (no return to an application) until they are.
  'AGREEMENTS_UNSIGNED', // 73
  // The account is frozen until its deletion; its owner may keep it by signing in and confirming.
  'ACCOUNT_DELETING', // 74
  // The school asks its pupil to choose their own password first: nothing else works until they do.
  'PASSWORD_CHANGE_REQUIRED', // 75
] as const;

type Numbered<Names extends readonly string[], Offset extends unknown[] = []> = {
  readonly [I in keyof Names & `${number}` as Names[I]]: I extends `${infer N extends number}`
    ? [...Offset, ...TupleOf<N>]['length'] extends infer M extends number
      ? M
      : never
    : never;
};

type TupleOf<N extends number, T extends unknown[] = []> = T['length'] extends N ? T : TupleOf<N, [...T, unknown]>;

export type { Numbered as NumberedCodes, TupleOf };

/** Each core client code's number; INIT_PARAMS_INVALID (-1) is the one before the list. */
export const CoreCode: { readonly INIT_PARAMS_INVALID: -1 } & Numbered<typeof CORE_CLIENT_CODES> =
  /* @__PURE__ */ Object.assign(
    { INIT_PARAMS_INVALID: -1 as const },
    /* @__PURE__ */ Object.fromEntries(
      /* @__PURE__ */ CORE_CLIENT_CODES.map((name, number) => [name, number]),
    ) as Numbered<typeof CORE_CLIENT_CODES>,
  );

export type CoreCodeName = keyof typeof CoreCode;

/**
 * The name of a core client code number; undefined past the core list (an SDK core names those by the
 * server's `error_code`, and maps the number from it: server-code-numbers.ts).
 */
export const coreCodeName = (code: number): CoreCodeName | undefined =>
  code === -1 ? 'INIT_PARAMS_INVALID' : CORE_CLIENT_CODES[code];

/**
 * Validation rules of the specification (§5), with their exact messages. The SDK runs them before a
 * request; the server runs the same ones on what arrives.
 */
import { updateProfileRoute } from './account-routes.ts';
import { CoreCode, type CoreCodeName } from './client-codes.ts';

/** A failed rule: the client code to throw and the message (the name follows from the code: `clientCodeName`). */
export interface RuleFailure {
  code: number;
  message: string;
}

const failure = (name: CoreCodeName, message: string): RuleFailure => ({ code: CoreCode[name], message });

/** `String(value)`, except for objects whose own toString/valueOf cannot make a string (hostile JSON). */
const shown = (value: unknown): string => {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};

const genericMessage = (field: string, value: unknown) =>
  `Invalid ${field} "${shown(value)}", it should match the RegExp.`;

/**
 * The request field an E_1 message names, so a form can show the error at that input: the rules' own
 * messages (`Invalid nickname "…"`, `Invalid sex, …`), the field checks of the server (`Field "grade" …`,
 * `Missing field "captcha".`, `Unknown profile field "x".`) and a service's `avatar_url must …`.
 * Undefined when the message names none.
 */
export const fieldNamedIn = (message: string): string | undefined => {
  const named =
    /^Invalid ([a-z_]+)[ ,]/.exec(message)?.[1] ??
    /\bfield "([a-z_]+)"/i.exec(message)?.[1] ??
    /^([a-z]+(?:_[a-z]+)*) must\b/.exec(message)?.[1];
  return named === 'request' ? undefined : named;
};

export const PATTERNS = {
  phone_number: /^1[3-9]\d{9}$/,
  captcha: /^\d{6}$/,
  // Letters, digits and the symbols !@#$%^&*()_+-=[]{};':",./<>?\|`~ (a literal: no code to build it).
  password: /^[A-Za-z0-9!@#$%^&*()_+\-=[\]{};':",./<>?\\|`~]{6,20}$/,
  username: /^[A-Za-z][A-Za-z0-9_]{5,29}$/,
  // No whitespace and none of the listed ASCII and full-width symbols (controls, zero-width and bidi
  // marks: serverCheck).
  nickname: /^[^\s~!@#$%^&*()+=<>?:"{}|,./;'\\[\]`·！￥…（）—【】、；：‘’“”《》？，。]{1,20}$/u,
  fullname: /^(?:[\u4e00-\u9fa5]{2,20}|(?=.{4,30}$)[A-Za-z]+(?: [A-Za-z]+)*)$/,
  qq: /^\d{5,20}$/,
  // At most 254 characters, and one plain address: none of the characters with which a mail library
  // reads a name, a comment, a quoted part, a group or a list ("x<a@b.cn>", "(c)a@b.cn", "a@b.cn,")
  // and delivers to a@b.cn, which would then be a new target for every limit and a new account for
  // the same mailbox (server: adapters/email.test.ts checks the rule against nodemailer's parser).
  email: /^(?!.{255})[^\s@()<>:;\\,"]{1,64}@[^\s@()<>:;\\,"]+\.[^\s@()<>:;\\,"]+$/,
} as const;

/**
 * Control characters (C0, DEL, C1) and lone surrogates: no text field holds them (PostgreSQL cannot
 * store NUL at all). Multi-line text may keep tab, line feed and carriage return.
 */
const CONTROL = /[\p{Cc}\p{Cs}]/u;
const CONTROL_MULTILINE = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;
export const hasControlCharacters = (text: string, multiline = false): boolean =>
  (multiline ? CONTROL_MULTILINE : CONTROL).test(text);

/** What a name or self-description shown to other people must not hide: controls, zero-width and bidi marks. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

type Check = (value: unknown) => RuleFailure | null;

const DESCRIPTION_MESSAGE = 'Invalid description, it should contains only 0 - 50 characters.';

/* @__NO_SIDE_EFFECTS__ */
const patternCheck =
  (field: keyof typeof PATTERNS, name: CoreCodeName): Check =>
  (value) =>
    typeof value === 'string' && PATTERNS[field].test(value) ? null : failure(name, genericMessage(field, value));

export const checks = {
  phone_number: patternCheck('phone_number', 'INVALID_PHONE'),
  captcha: patternCheck('captcha', 'INVALID_CAPTCHA'),
  password: patternCheck('password', 'INVALID_PASSWORD'),
  username: patternCheck('username', 'INVALID_USERNAME'),
  nickname: patternCheck('nickname', 'INVALID_NICKNAME'),
  fullname: patternCheck('fullname', 'INVALID_FULLNAME'),
  qq: patternCheck('qq', 'INVALID_QQ'),
  email: patternCheck('email', 'INVALID_EMAIL'),
  description: (value: unknown) =>
    typeof value === 'string' && [...value].length <= 50 ? null : failure('INVALID_DESCRIPTION', DESCRIPTION_MESSAGE),
  sex: (value: unknown) =>
    value === 0 || value === 1 ? null : failure('INVALID_SEX', 'Invalid sex, it should be 0 or 1.'),
  birthday: (value: unknown) =>
    Number.isSafeInteger(value) ? null : failure('INVALID_BIRTHDAY', genericMessage('birthday', value)),
  agreement_ids: (value: unknown) =>
    Array.isArray(value) && value.length > 0 && value.every((id) => Number.isSafeInteger(id))
      ? null
      : failure('EMPTY_AGREEMENT_IDS', 'agreement_ids should not be an empty array.'),
} satisfies Record<string, Check>;

/**
 * A rule as the server applies it: `checks`, and a nickname or self-description shown to others must
 * not hide characters either (a full name's pattern admits none). Kept out of `checks` so the
 * browser SDKs, which leave that to the server, stay small.
 */
export const serverCheck = (rule: keyof typeof checks, value: unknown): RuleFailure | null => {
  if (typeof value === 'string' && INVISIBLE.test(value)) {
    if (rule === 'description') return failure('INVALID_DESCRIPTION', DESCRIPTION_MESSAGE);
    if (rule === 'nickname') return failure('INVALID_NICKNAME', genericMessage('nickname', value));
  }
  return checks[rule](value);
};

export const passwordsEqual = (password: unknown, confirmed: unknown): RuleFailure | null =>
  password === confirmed ? null : failure('PASSWORD_MISMATCH', 'Password is not equal to confirmed password.');

/** Profile fields a client may send (§3 "Settable profile fields"): the fields of the profile route. */
export type ProfileField = keyof typeof updateProfileRoute.body;
/** A function, not a constant: bundlers keep a module-level read of the route's fields even where nothing uses it. */
export const profileFields = (): readonly ProfileField[] => Object.keys(updateProfileRoute.body) as ProfileField[];

/** Of the settable fields, the ones the profile check validates, and only when present (§5). */
const PROFILE_CHECKED = ['birthday', 'sex', 'fullname', 'nickname', 'qq', 'description'] as const;

/** The profile check: only allowed fields, each checked only when present. */
export const checkProfile = (profile: Record<string, unknown>): RuleFailure | null => {
  const unknownField = Object.keys(profile).find((key) => !Object.hasOwn(updateProfileRoute.body, key));
  if (unknownField !== undefined) return failure('INVALID_REQUEST', `Unknown profile field "${unknownField}".`);
  for (const field of PROFILE_CHECKED) {
    if (profile[field] !== undefined) {
      const result = checks[field](profile[field]);
      if (result) return result;
    }
  }
  return null;
};

/** The register options check: phone_number, password, captcha and agreement_ids (§5). */
export const checkRegister = (options: {
  phone_number?: unknown;
  password?: unknown;
  captcha?: unknown;
  agreement_ids?: unknown;
}): RuleFailure | null =>
  checks.phone_number(options.phone_number) ??
  checks.password(options.password) ??
  checks.captcha(options.captcha) ??
  checks.agreement_ids(options.agreement_ids);

/**
 * Which input an error belongs to: the one mapping every form uses to show a refusal at its field
 * instead of above the button. Inputs are named by their request field (`phone_number`, `captcha`,
 * `old_password`…); an E_1 names its field in the message (`fieldNamedIn`, protocol/validation.ts).
 */
import { type ClientCodeName, clientCodeName, fieldNamedIn } from '@edupass/protocol';

/** The request fields forms name their inputs by (a form may have its own, like `identity`). */
export type FormField =
  | 'identity'
  | 'phone_number'
  | 'old_phone_number'
  | 'email'
  | 'captcha'
  | 'password'
  | 'old_password'
  | 'confirm_password'
  | 'username'
  | 'nickname'
  | 'avatar_url'
  | 'fullname'
  | 'birthday'
  | 'sex'
  | 'qq'
  | 'description'
  | 'grade'
  | (string & {});

/** Catalogue errors that are about one input, whatever the message says. */
const FIELD_OF_CODE: Partial<Record<ClientCodeName, FormField>> = {
  INVALID_PHONE: 'phone_number',
  PHONE_REGISTERED: 'phone_number',
  PHONE_UNREGISTERED: 'phone_number',
  CODE_MUST_GO_TO_BOUND_PHONE: 'phone_number',
  CANNOT_REBIND_SAME_PHONE: 'phone_number',
  PHONE_BOUND_BY_OTHER_ACCOUNT: 'phone_number',
  OLD_PHONE_WRONG: 'old_phone_number',
  INVALID_EMAIL: 'email',
  EMAIL_REGISTERED: 'email',
  INVALID_CAPTCHA: 'captcha',
  VERIFY_CAPTCHA_FAIL: 'captcha',
  INVALID_PASSWORD: 'password',
  PASSWORD_TOO_COMMON: 'password',
  USER_NOT_EXIST_OR_WRONG_PASSWORD: 'password',
  USER_NOT_EXIST: 'identity',
  WRONG_OLD_PASSWORD: 'old_password',
  PASSWORD_MISMATCH: 'confirm_password',
  PASSWORDS_DIFFER: 'confirm_password',
  INVALID_USERNAME: 'username',
  USERNAME_EXISTS: 'username',
  CANNOT_SET_USERNAME_REPEATEDLY: 'username',
  INVALID_NICKNAME: 'nickname',
  NICKNAME_EXISTS: 'nickname',
  INVALID_FULLNAME: 'fullname',
  INVALID_BIRTHDAY: 'birthday',
  CANNOT_SET_FUTURE_DATE: 'birthday',
  INVALID_SEX: 'sex',
  INVALID_QQ: 'qq',
  INVALID_DESCRIPTION: 'description',
};

const codedError = (value: unknown): { code: number; message: string; serverCode?: string } | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number'
    ? (value as { code: number; message: string; serverCode?: string })
    : undefined;

/** The input `error` is about, or undefined for an error of the whole form (or of no form). */
export const fieldOfError = (error: unknown): FormField | undefined => {
  const coded = codedError(error);
  // GCAP_1 shares INVALID_CAPTCHA's number: it is the human check that failed, not the code typed.
  if (coded === undefined || coded.serverCode === 'GCAP_1') return undefined;
  const name = clientCodeName(coded.code);
  if (name === 'INVALID_REQUEST') return typeof coded.message === 'string' ? fieldNamedIn(coded.message) : undefined;
  return name === undefined ? undefined : FIELD_OF_CODE[name];
};

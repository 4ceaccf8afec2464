/**
 * What the account, token and captcha calls answer (compatibility.md's shapes, as existing clients
 * read them): the response schemas of the API docs, and through `Answer<…>` the types of types.ts and
 * captcha.ts. Only the server and the route table import these values; the SDKs import the types.
 */
import { boolean, either, integer, list, object, oneOf, record, text } from './answer-schema.ts';

export const tokenSetAnswer = object({
  access: object({ token: text(), type: text(), expires_in: integer() }),
  refresh: object({ token: text(), expires_in: integer() }),
});

export const userInfoAnswer = object(
  {
    id: integer(),
    nickname: text(),
    avatar_url: text(),
    fullname: text(),
    /** 1 male, 0 female — or not set, which `unset_fields` tells (unset-fields.ts). */
    sex: oneOf(0, 1),
    /** Unix seconds; 0 when not set. */
    birthday: integer(),
    qq: text(),
    description: text(),
    /** A grade of the grade list; 0 when not set. */
    grade: integer(),
    grade_desc: text(),
  },
  {
    /** Which of sex, birthday and grade the user never set (EduPass's servers send it; others may not). */
    unset_fields: list(oneOf('sex', 'birthday', 'grade')),
  },
);

export const authInfoAnswer = object({
  /** The access token as a string, or the token set when the request carried `Auth-Version`. */
  token: either(text(), tokenSetAnswer),
  email: text(),
  /** Masked: `138****1234`. */
  phone_number: text(),
  has_password: boolean(),
  is_weak_password: boolean(),
});

const signedInFields = { user_info: userInfoAnswer, auth: authInfoAnswer };
const signInNotes = {
  /** Only from the silent phone login. */
  is_first_login: boolean(),
  /**
   * Only for staff (operators, school admins, teachers) whose password is past the staff policy's
   * change interval or below its rules: change it before anything else (other calls answer E_21).
   */
  password_expired: boolean(),
  /**
   * Only when the sign-in named the product sign-in it is for (`interaction`) and completed it: where
   * the browser goes on to (the product's sign-in resumed).
   */
  redirect_to: text(),
};

export const loginResultAnswer = object(signedInFields, signInNotes);

/** A third-party sign-in whose account is not linked yet. */
export const oauthPendingAnswer = object({
  oauth_ticket: text(),
  /** Whether the third-party identity already has an EduPass user. */
  user_exists: boolean(),
});

/** `GET oauth/third-party`: the pending identity, and the phone its bind code went to. */
export const oauthBindCheckAnswer = object({
  oauth_ticket: text(),
  user_exists: boolean(),
  provider: text(),
  nickname: text(),
  avatar_url: text(),
  /** The phone the bind code went to, masked; '' before one was sent. */
  phone_number: text(),
});

/** `GET oauth/{wechat|qq}/authorize` for a JSON caller (browsers get a 302 to the provider). */
export const oauthStartAnswer = object({ url: text(), state: text() });

export const privacyAnswer = object({
  username: text(),
  email: text(),
  phone_number: text(),
  has_password: boolean(),
});

export const oauthItemAnswer = object({
  id: integer(),
  name: oneOf('wechat', 'qq'),
  nickname: text(),
  is_bound: boolean(),
});

export const gradeStageAnswer = object({
  stage: text(),
  gradeList: list(object({ grade: integer(), desc: text(), recommended: boolean() })),
});

/**
 * A current agreement: `title` in the reader's language (Accept-Language, else Chinese), and `titles`
 * in every language it has, so a page switching language names it without asking again.
 */
export const agreementAnswer = object(
  {
    id: integer(),
    code: text(),
    title: text(),
    version: integer(),
    url: text(),
    effective_at: integer(),
  },
  { titles: record(text()) },
);

/**
 * A published agreement's text (`readAgreement`): the operator's content, plain text, in the language
 * asked for when it has one (`lang` says which it is).
 */
export const agreementTextAnswer = object(
  {
    code: text(),
    title: text(),
    version: integer(),
    content: text(),
    url: text(),
    effective_at: integer(),
  },
  { lang: text() },
);

export const ticketAnswer = object({ ticket: text() });

/** `GET …/step-up`: whether the session holds a recent proof, for how long, and how to give one. */
export const stepUpStatusAnswer = object({
  fresh: boolean(),
  /** Seconds the proof still holds (0 when not fresh). */
  expires_in: integer(),
  /** The proofs this account can give: its password, a code to its phone or e-mail, its second factor. */
  methods: list(oneOf('password', 'sms', 'email', 'totp', 'passkey', 'wechat', 'qq')),
});

export const captchaRuleAnswer = object({
  /** A CaptchaRule, or a rule a newer server knows. */
  rule: text(),
  appid: text(),
  /** Usable at once when `rule` is one the client runs no widget for (DEFAULT). */
  ticket: text(),
});

/** Geetest v3 start parameters (`geetest/register`). `success: 0` is Geetest's offline (fallback) mode. */
export const geetestParamsAnswer = object({
  gt: text(),
  challenge: text(),
  success: oneOf(0, 1),
  new_captcha: boolean(),
});

/** The ticket an exchange answers with; Aliyun's also carries `appid`. */
export const captchaTicketAnswer = object({ ticket: text() }, { appid: text() });

export const slideChallengeAnswer = object({
  id: text(),
  /** PNG data URLs: the background with the gap, and the jigsaw piece. */
  background: text(),
  piece: text(),
  width: integer(),
  height: integer(),
  /** The piece's top edge in the background; only its x is the puzzle. */
  pieceY: integer(),
  pieceWidth: integer(),
  pieceHeight: integer(),
  /** Seconds until the challenge can no longer be answered. */
  expiresIn: integer(),
});

/** `GET /dev/outbox` (development only): what was sent to a phone or address, newest first. */
export const outboxAnswer = list(
  object({ to: text(), channel: text(), text: text(), code: text(), sent_at: integer() }),
);

/**
 * What every refusal answers (errors.ts's WireError): the catalogue's code, message and number; E_11
 * (MFA_REQUIRED) adds the sign-in's second-factor challenge and the factors that can answer it; E_16
 * (ACCOUNT_DELETING) the ticket that keeps the account and when it will be erased.
 */
export const wireErrorAnswer = object(
  {
    error_code: text(),
    error_message: text(),
    error_number: integer(),
    error_category: text(),
    log_uuid: text(),
  },
  {
    mfa_challenge: text(),
    mfa_methods: list(oneOf('totp', 'passkey', 'recovery_code')),
    deletion_ticket: text(),
    erase_at: integer(),
    /** Seconds until the refusal lifts: a code send or slide puzzle asked too often (AC3_23, AC3_48), a locked sign-in (E_5). */
    retry_after: integer(),
  },
);

/** Where the uploaded profile picture is served; the profile's `avatar_url` is set to it. */
export const avatarAnswer = object({ avatar_url: text() });

/**
 * The human-verification wire contract (spec §3, §4, §7, §8; compatibility.md "Captcha rule"):
 * rule answers, vendor exchange bodies, EduPass's own slide puzzle, and the texts users see.
 */
import type {
  captchaRuleAnswer,
  captchaTicketAnswer,
  geetestParamsAnswer,
  slideChallengeAnswer,
} from './account-answers.ts';
import type { Answer } from './answer-schema.ts';
import type { CaptchaRule } from './constants.ts';

/** `POST /captcha/rule/v3` body. Servers accept it without `scene`, with `timestamp` in ms, and without SDK headers. */
export interface CaptchaRuleRequest {
  identity: string;
  scene: string;
  pid: string;
  deviceId: string;
  /** Unix seconds. */
  timestamp: number;
  /** Rules beyond the specification's six that the client can run; only `SLIDE` exists. */
  capabilities?: string[];
}

/** `rule` is a {@link CaptchaRule}, or one a newer server knows; `ticket` is usable at once for DEFAULT. */
export type CaptchaRuleResponse = Answer<typeof captchaRuleAnswer>;

/** Geetest v3 start parameters (`geetest/register`). `success: 0` is Geetest's offline (fallback) mode. */
export type GeetestParams = Answer<typeof geetestParamsAnswer>;

/** The ticket an exchange answers with; Aliyun's also carries `appid`. */
export type CaptchaTicketResponse = Answer<typeof captchaTicketAnswer>;

/** One drag sample: x and y in CSS pixels relative to the drag start, t in ms since it. */
export type SlideSample = [x: number, y: number, t: number];

/** How the puzzle was answered; keyboard answers are judged on key timing instead of a drag path. */
export type SlideInput = 'pointer' | 'keyboard';

/** A slide puzzle: PNG data URLs of the background with its gap and of the piece, and its geometry. */
export type SlideChallenge = Answer<typeof slideChallengeAnswer>;

export interface SlideAnswer {
  id: string;
  /** Where the piece's left edge was dropped, in background pixels. */
  x: number;
  trajectory: SlideSample[];
  input?: SlideInput;
}

/** Texts of the specification (§2, §4, §8), word for word. */
export const CAPTCHA_MESSAGES = {
  rejected: 'incorrect captcha checking',
  error: 'some error occurred',
  fatal: 'fatal error occurred',
  /** Aliyun: the check said no ("verification failed"). */
  aliyunFailed: '验证失败',
  /** Aliyun: the check could not be made ("verification error"). */
  aliyunError: '验证错误',
  geetestParams: 'Get geetest init params fail, please reload the page or try again later.',
  prompt: 'drag the slider below to complete verification',
  close: 'close',
  noTicket: 'No captcha ticket.',
  closed: 'The verification was closed.',
} as const;

/**
 * Scene names to ask a rule for: the purpose of the call the ticket will go with. A ticket works only
 * for its scene (and identity), so an SMS sign-in code asks for 'login', a sign-up code 'register', a
 * password sign-in (login/security) 'login'. A rule asked without a scene gives a ticket for any scene.
 */
export const CAPTCHA_SCENES = [
  'login',
  'register',
  'silence',
  'reset',
  'common',
  'bind',
  'change',
  'password_update',
  'email_register',
  /** E-mail accounts: a reset code, a sign-in code, the code to an address to add or change to. */
  'email_reset',
  'email_login',
  'email_bind',
  /** Third-party sign-up: the code to the phone to bind, and an account of the identity alone (no identity bound). */
  'oauth',
] as const;

/** Ticket headers of the account endpoints that need human verification. */
export const CAPTCHA_TICKET_HEADER = 'X-Captcha-Ticket';
export const CAPTCHA_ID_HEADER = 'X-Captcha-Id';

/** Response shapes of compatibility.md, as existing clients read them. */

export interface TokenSet {
  access: { token: string; type: string; expires_in: number };
  refresh: { token: string; expires_in: number };
}

export interface UserInfo {
  id: number;
  nickname: string;
  avatar_url: string;
  fullname: string;
  /** 1 male, 0 female — or not set, which `unset_fields` tells (unset-fields.ts). */
  sex: 0 | 1;
  /** Unix seconds; 0 when not set. */
  birthday: number;
  qq: string;
  description: string;
  /** A grade of the grade list; 0 when not set. */
  grade: number;
  grade_desc: string;
  /** Which of sex, birthday and grade the user never set (EduPass's servers send it; others may not). */
  unset_fields?: ('sex' | 'birthday' | 'grade')[];
}

export interface AuthInfo {
  /** The access token as a string, or the token set when the request carried `Auth-Version`. */
  token: string | TokenSet;
  email: string;
  /** Masked: `138****1234`. */
  phone_number: string;
  has_password: boolean;
  is_weak_password: boolean;
}

export interface LoginResult {
  user_info: UserInfo;
  auth: AuthInfo;
  /** Only from the silent phone login. */
  is_first_login?: boolean;
}

/** A third-party sign-in whose account is not linked yet. */
export interface OauthPending {
  oauth_ticket: string;
  /** Whether the third-party identity already has an EduPass user. */
  user_exists: boolean;
}

export interface Privacy {
  username: string;
  email: string;
  phone_number: string;
  has_password: boolean;
}

export interface OauthItem {
  id: number;
  name: 'wechat' | 'qq';
  nickname: string;
  is_bound: boolean;
}

export interface GradeStage {
  stage: string;
  gradeList: { grade: number; desc: string; recommended: boolean }[];
}

export interface Agreement {
  id: number;
  code: string;
  title: string;
  version: number;
  url: string;
  effective_at: number;
}

/** A published agreement's text (`readAgreement`): the operator's content, plain text. */
export interface AgreementText {
  code: string;
  title: string;
  version: number;
  content: string;
  url: string;
  effective_at: number;
}

export interface TicketResult {
  ticket: string;
}

/** `GET …/step-up`: whether the session holds a recent proof, for how long, and how to give one. */
export interface StepUpStatus {
  fresh: boolean;
  /** Seconds the proof still holds (0 when not fresh). */
  expires_in: number;
  /** The proofs this account can give: its password, a code to its phone or e-mail, its second factor. */
  methods: ('password' | 'sms' | 'email' | 'totp' | 'passkey')[];
}

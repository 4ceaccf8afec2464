/**
 * Response shapes of compatibility.md, as existing clients read them: the types of the answer schemas
 * in account-answers.ts (types only here, so client bundles carry none of the schemas).
 */
import type {
  agreementAnswer,
  agreementTextAnswer,
  authInfoAnswer,
  gradeStageAnswer,
  loginResultAnswer,
  oauthItemAnswer,
  oauthPendingAnswer,
  privacyAnswer,
  stepUpStatusAnswer,
  ticketAnswer,
  tokenSetAnswer,
  userInfoAnswer,
} from './account-answers.ts';
import type { Answer } from './answer-schema.ts';

export type TokenSet = Answer<typeof tokenSetAnswer>;
/** `sex` is 1 male, 0 female — or not set, which `unset_fields` tells (unset-fields.ts). */
export type UserInfo = Answer<typeof userInfoAnswer>;
/** `token` is the access token as a string, or the token set when the request carried `Auth-Version`. */
export type AuthInfo = Answer<typeof authInfoAnswer>;
export type LoginResult = Answer<typeof loginResultAnswer>;
/** A third-party sign-in whose account is not linked yet. */
export type OauthPending = Answer<typeof oauthPendingAnswer>;
export type Privacy = Answer<typeof privacyAnswer>;
export type OauthItem = Answer<typeof oauthItemAnswer>;
export type GradeStage = Answer<typeof gradeStageAnswer>;
export type Agreement = Answer<typeof agreementAnswer>;
/** A published agreement's text (`readAgreement`): the operator's content, plain text. */
export type AgreementText = Answer<typeof agreementTextAnswer>;
export type TicketResult = Answer<typeof ticketAnswer>;
/** `GET …/step-up`: whether the session holds a recent proof, for how long, and how to give one. */
export type StepUpStatus = Answer<typeof stepUpStatusAnswer>;

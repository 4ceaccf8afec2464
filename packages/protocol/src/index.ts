export * from './account-answers.ts';
export * from './account-opening-routes.ts';
export * from './account-routes.ts';
export * from './account-settings-routes.ts';
export * from './address-book-routes.ts';
export * from './admin-answers.ts';
export * from './answer-check.ts';
export type { Answer, Schema } from './answer-schema.ts';
export * as answerSchema from './answer-schema.ts';
export { NO_CONTENT } from './answer-schema.ts';
export * from './application-routes.ts';
export * from './badge-route.ts';
export * from './captcha.ts';
export * from './captcha-routes.ts';
export * from './client-codes.ts';
export * from './collector-answers.ts';
export * from './console-routes.ts';
export * from './constants.ts';
export * from './data-export-routes.ts';
export * from './durations.ts';
export * from './edu-admin-routes.ts';
export * from './edu-routes.ts';
export * from './email-routes.ts';
export * from './errors.ts';
export * from './guardian-checks-routes.ts';
export * from './guardian-link-routes.ts';
export * from './guardian-routes.ts';
export * from './identity-routes.ts';
export * from './key-answers.ts';
export * from './oauth-sign-in-routes.ts';
export * from './oidc-claims.ts';
export * from './operator-duties.ts';
export { operatorRoute, windowQuery } from './operator-route.ts';
export * from './own-consent-route.ts';
export * from './pupil-merge-routes.ts';
export * from './retention-routes.ts';
export * from './rights-routes.ts';
export * from './routes.ts';
export {
  schoolChoiceAnswer,
  schoolSignInStartAnswer,
  schoolSignInTable,
  schoolSignOutAnswer,
} from './school-sign-in-routes.ts';
export * from './school-staff-codes.ts';
export * from './second-factor-routes.ts';
export * from './server-code-numbers.ts';
export * from './session-routes.ts';
export * from './sign-up-age-routes.ts';
export * from './types.ts';
export * from './unset-fields.ts';
export * from './usage.ts';
export * from './validation.ts';
export * from './webhook-routes.ts';
export * from './wire-error.ts';
export * from './yearly-report.ts';

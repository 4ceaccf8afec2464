/**
 * The operator console's calls beyond users and agreements: captcha policy, provider and vendor keys
 * per product and scene, what the audit log answers, and the monitoring figures the dashboards draw (error groups with last seen, API outcome codes per
 * path, web-vitals p75 per time bucket). Operators only; spread into `adminRoutes`.
 */
import {
  apiCodeCountAnswer,
  type auditEntryAnswer,
  type auditExportAnswer,
  type captchaProviderChoiceAnswer,
  type captchaRiskAnswer,
  captchaSettingsAnswer,
  type captchaVendorFieldAnswer,
  type captchaVendorStateAnswer,
  errorGroupAnswer,
  oauthStateSettingAnswer,
  type operatorSelfAnswer,
  type operatorSummaryAnswer,
  vitalPointAnswer,
} from './admin-answers.ts';
import { type Answer, list, NO_CONTENT } from './answer-schema.ts';
import { signingKeyAnswer } from './key-answers.ts';
import { operatorRoute as operator, windowQuery } from './operator-route.ts';
import { opt, s } from './route-fields.ts';

export const consoleRoutes = {
  getCaptchaSettings: operator(
    'GET',
    'captcha',
    'Captcha policies per product and scene, providers and which vendor keys are set (never their secrets)',
    captchaSettingsAnswer,
  ),
  setCaptchaPolicy: operator('POST', 'captcha/policies', 'Set the captcha policy of a product and scene', NO_CONTENT, {
    body: { pid: s(64), scene: s(64), policy: s(16) },
  }),
  clearCaptchaPolicy: operator(
    'POST',
    'captcha/policies/clear',
    'Remove an operator policy (configuration applies)',
    NO_CONTENT,
    { body: { pid: s(64), scene: s(64) } },
  ),
  setCaptchaProvider: operator(
    'POST',
    'captcha/providers',
    'Choose the captcha provider of a product (or * for the rest)',
    NO_CONTENT,
    { body: { pid: s(64), provider: s(16) } },
  ),
  clearCaptchaProvider: operator(
    'POST',
    'captcha/providers/clear',
    "Remove a product's operator-chosen provider (configuration applies)",
    NO_CONTENT,
    { body: { pid: s(64) } },
  ),
  setCaptchaVendorKeys: operator(
    'POST',
    'captcha/vendors/keys',
    "Set some of a vendor's keys and endpoints over the configured ones (secrets are write-only)",
    NO_CONTENT,
    {
      body: {
        vendor: s(16),
        values: { type: 'any', required: true },
        // An endpoint outside the vendor's documented hosts is refused unless marked custom.
        custom_endpoint: { type: 'boolean', required: false },
      },
    },
  ),
  clearCaptchaVendorKeys: operator(
    'POST',
    'captcha/vendors/keys/clear',
    "Remove a vendor's console-set keys (all, or the named fields): configuration applies again",
    NO_CONTENT,
    { body: { vendor: s(16), fields: { type: 'string[]', required: false, maxLength: 16 } } },
  ),
  getOauthSettings: operator(
    'GET',
    'oauth',
    "Per product: whether WeChat/QQ code sign-in and bind are accepted without EduPass's state",
    list(oauthStateSettingAnswer),
  ),
  setOauthWithoutState: operator(
    'POST',
    'oauth/without-state',
    "Accept (or refuse) a product's WeChat/QQ code steps without EduPass's state, over configuration",
    NO_CONTENT,
    { body: { pid: s(64), enabled: { type: 'boolean', required: true } } },
  ),
  clearOauthWithoutState: operator(
    'POST',
    'oauth/without-state/clear',
    "Remove a product's console choice (OAUTH_WITHOUT_STATE applies)",
    NO_CONTENT,
    { body: { pid: s(64) } },
  ),
  monitorErrorGroups: operator(
    'GET',
    'monitor/error-groups',
    'JS errors by message: count, pages, last seen',
    list(errorGroupAnswer),
    { query: windowQuery },
  ),
  monitorApiCodes: operator(
    'GET',
    'monitor/api-codes',
    'API outcomes per path and code (601–604, HTTP codes)',
    list(apiCodeCountAnswer),
    { query: windowQuery },
  ),
  monitorVitalsSeries: operator(
    'GET',
    'monitor/vitals-series',
    'Web-vitals p75 per hour or day',
    list(vitalPointAnswer),
    {
      query: { ...windowQuery, bucket: opt(s(8)) },
    },
  ),
  listSigningKeys: operator(
    'GET',
    'signing-keys',
    'The keys that sign access tokens, and where each stands',
    list(signingKeyAnswer),
  ),
  rotateSigningKey: operator(
    'POST',
    'signing-keys/rotate',
    'Add the next signing key: published now, signing after the publication delay (or at once with now)',
    signingKeyAnswer,
    { body: { now: { type: 'boolean', required: false } } },
  ),
} as const;

export {
  CAPTCHA_KEY_SOURCES,
  CAPTCHA_POLICIES,
  CAPTCHA_PROVIDERS,
  type CaptchaKeySource,
  type CaptchaPolicyName,
  type CaptchaProviderName,
  type CaptchaVendorName,
  isCaptchaPolicy,
  isCaptchaProvider,
} from './captcha-choices.ts';

// The answers' types, from the schemas the API docs show (admin-answers.ts).
export type CaptchaVendorField = Answer<typeof captchaVendorFieldAnswer>;
export type CaptchaVendorState = Answer<typeof captchaVendorStateAnswer>;
export type CaptchaProviderChoice = Answer<typeof captchaProviderChoiceAnswer>;
export type CaptchaSettings = Answer<typeof captchaSettingsAnswer>;
export type CaptchaRiskThresholds = Answer<typeof captchaRiskAnswer>;
export type OauthStateSetting = Answer<typeof oauthStateSettingAnswer>;
export type OperatorSummary = Answer<typeof operatorSummaryAnswer>;
export type OperatorSelf = Answer<typeof operatorSelfAnswer>;
export type ErrorGroup = Answer<typeof errorGroupAnswer>;
export type ApiCodeCount = Answer<typeof apiCodeCountAnswer>;
export type VitalPoint = Answer<typeof vitalPointAnswer>;

/** A key that signs access tokens (`GET /admin/signing-keys`). */
export type SigningKeyInfo = Answer<typeof signingKeyAnswer>;

/** What the audit log records; answers may carry others (a newer server), shown as they are. */
export const AUDIT_ACTIONS = [
  'user.block',
  'user.unblock',
  'user.sessions.revoke',
  'user.second-factor.reset',
  'user.delete',
  'user.export',
  'agreement.publish',
  'captcha.policy.set',
  'captcha.policy.clear',
  'captcha.provider.set',
  'captcha.provider.clear',
  'captcha.vendor.set',
  'captcha.vendor.clear',
  'oauth.without-state.set',
  'oauth.without-state.clear',
  'signing-key.rotate',
  'application.add',
  'application.secret.rotate',
  'application.remove',
  'application.update',
  'school.add',
  'school.quota.set',
  'school.cards.set',
  'school.connector.add',
  'school.connector.disable',
  'school.connector.enable',
  'school.connector.mapping',
  'teacher.approve',
  'teacher.refuse',
  'teacher.add',
  'school.roster.preview',
  'school.roster.import',
  'edu.pupils.create',
  'edu.pupils.reset',
  'edu.pupils.move',
  'edu.pupils.merge',
  'edu.cards.print',
  'edu.class.archive',
  'edu.class.promote',
  'edu.class.grade',
  'data_request.record',
  'data_request.close',
  'staff_access.request',
  'staff_access.approve',
  'staff_access.refuse',
  'audit.export',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Groups of audit actions the log filters by (`GET /admin/audit?group=`): `edu-bulk` is every bulk
 * action of a school's teachers (pupil batches, resets, moves, card sheets, class archives, promotions and grade changes).
 */
export const AUDIT_GROUPS = {
  'edu-bulk': [
    'edu.pupils.create',
    'edu.pupils.reset',
    'edu.pupils.move',
    'edu.pupils.merge',
    'edu.cards.print',
    'edu.class.archive',
    'edu.class.promote',
    'edu.class.grade',
  ],
} as const satisfies Record<string, readonly AuditAction[]>;
export type AuditGroup = keyof typeof AUDIT_GROUPS;

/** One entry of `GET /admin/audit`; `action` is an {@link AuditAction} or one a newer server records. */
export type AuditEntry = Answer<typeof auditEntryAnswer>;
export type AuditExport = Answer<typeof auditExportAnswer>;

/**
 * The three operator duties (GB/T 22239-2019 level 3: separate system, security and audit
 * administrators) and, once for the server and the console, which duty may call each admin route.
 *
 * - `system`: users, schools, applications, webhooks, agreements, settings, the dashboards.
 * - `security`: signing keys, captcha, limits, second factors, approving staff reads of minors' records.
 * - `auditor`: reads the audit log (never its own rows) and the yearly report; changes nothing.
 *
 * An operator holds one or more duties (`users.operator_duties`, e.g. `system,security`). The table is
 * typed over every operator route, so a new admin route does not compile until it names its duties.
 */
import type { RouteName, routes } from './routes.ts';

export const OPERATOR_DUTIES = ['system', 'security', 'auditor'] as const;
export type OperatorDuty = (typeof OPERATOR_DUTIES)[number];

export type OperatorRouteName = {
  [N in RouteName]: (typeof routes)[N]['auth'] extends 'operator' ? N : never;
}[RouteName];

const SYSTEM = ['system'] as const;
const SECURITY = ['security'] as const;
const AUDITOR = ['auditor'] as const;
const ANY = OPERATOR_DUTIES;

export const ROUTE_DUTIES: Record<OperatorRouteName, readonly OperatorDuty[]> = {
  operatorSelf: ANY,
  listOperators: ANY,
  // Users and their data rights.
  searchUsers: SYSTEM,
  getUser: SYSTEM,
  blockUser: SYSTEM,
  unblockUser: SYSTEM,
  deleteUser: SYSTEM,
  revokeUserSessions: SYSTEM,
  requestUserExport: SYSTEM,
  listUserExports: SYSTEM,
  listDataRequests: SYSTEM,
  recordDataRequest: SYSTEM,
  closeDataRequest: SYSTEM,
  // Agreements and settings.
  listAllAgreements: SYSTEM,
  publishAgreement: SYSTEM,
  getOauthSettings: SYSTEM,
  setOauthWithoutState: SYSTEM,
  clearOauthWithoutState: SYSTEM,
  getConsentText: SYSTEM,
  saveConsentText: SYSTEM,
  // Dashboards.
  usageEvents: SYSTEM,
  usageUniques: SYSTEM,
  usageDurations: SYSTEM,
  monitorErrors: SYSTEM,
  monitorApi: SYSTEM,
  monitorVitals: SYSTEM,
  monitorErrorGroups: SYSTEM,
  monitorApiCodes: SYSTEM,
  monitorVitalsSeries: SYSTEM,
  // Applications and webhooks.
  listApplications: SYSTEM,
  addApplication: SYSTEM,
  updateApplication: SYSTEM,
  rotateApplicationSecret: SYSTEM,
  removeApplication: SYSTEM,
  listWebhooks: SYSTEM,
  addWebhook: SYSTEM,
  removeWebhook: SYSTEM,
  setWebhookEnabled: SYSTEM,
  listWebhookDeliveries: SYSTEM,
  listWebhookAttempts: SYSTEM,
  resendWebhookDelivery: SYSTEM,
  // Schools.
  listSchools: SYSTEM,
  addSchool: SYSTEM,
  listTeacherRequests: SYSTEM,
  approveTeacherByOperator: SYSTEM,
  refuseTeacherByOperator: SYSTEM,
  listSchoolConnectors: SYSTEM,
  listAddressBooks: SYSTEM,
  addAddressBook: SYSTEM,
  editAddressBook: SYSTEM,
  syncAddressBook: SYSTEM,
  addSchoolConnector: SYSTEM,
  editSchoolConnector: SYSTEM,
  setSchoolConnectorMapping: SYSTEM,
  previewRosterImport: SYSTEM,
  getRosterImport: SYSTEM,
  confirmRosterImport: SYSTEM,
  listSchoolAgreements: SYSTEM,
  recordSchoolAgreement: SYSTEM,
  endSchoolAgreement: SYSTEM,
  // A staff read of a minor's record is asked for by the system operator, decided by the security one.
  requestStaffAccess: SYSTEM,
  listStaffAccess: ['system', 'security'],
  approveStaffAccess: SECURITY,
  refuseStaffAccess: SECURITY,
  // Keys, captcha, limits, second factors.
  listSigningKeys: SECURITY,
  rotateSigningKey: SECURITY,
  getCaptchaSettings: SECURITY,
  setCaptchaPolicy: SECURITY,
  clearCaptchaPolicy: SECURITY,
  setCaptchaProvider: SECURITY,
  clearCaptchaProvider: SECURITY,
  setCaptchaVendorKeys: SECURITY,
  clearCaptchaVendorKeys: SECURITY,
  setSchoolQuota: SECURITY,
  resetSecondFactor: SECURITY,
  // The record of what operators did, and the yearly report filed from it.
  listAudit: AUDITOR,
  exportAuditLog: AUDITOR,
  yearlyReport: ['system', 'auditor'],
};

/** The duties an operator row holds: `system,security` → both; unknown words are dropped. */
export const dutiesOf = (stored: string | null | undefined): OperatorDuty[] =>
  OPERATOR_DUTIES.filter((duty) => (stored ?? '').split(',').includes(duty));

/** Whether an operator with `duties` may call the admin route `name`. */
export const mayCall = (duties: readonly OperatorDuty[], name: OperatorRouteName): boolean =>
  ROUTE_DUTIES[name].some((duty) => duties.includes(duty));

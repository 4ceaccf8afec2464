/**
 * The console's calls for users, agreements, captcha settings and the audit log. Inputs and answers
 * are the route table's types (`adminCall`); nothing here re-reads an answer by hand.
 */
import {
  type AnswerOf,
  type AuditGroup,
  adminRoutes,
  type BodyOf,
  type CaptchaPolicyName,
  type CaptchaProviderName,
  type CaptchaVendorName,
} from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export type UserPage = AnswerOf<'searchUsers'>;
export type UserRow = UserPage['items'][number];
export type UserDetail = AnswerOf<'getUser'>;

export const searchUsers = (q: string, cursor: number | undefined, limit = 30): Promise<UserPage> =>
  adminCall(adminRoutes.searchUsers, { query: { q: q.trim() || undefined, cursor, limit } });

/** A minor's record needs `reason` (and, where approvals are on, another operator's approval). */
export const getUser = (id: number, reason?: string): Promise<UserDetail> =>
  adminCall(adminRoutes.getUser, { params: { id }, query: { reason } });
export const blockUser = (id: number) => adminCall(adminRoutes.blockUser, { params: { id } });
export const unblockUser = (id: number) => adminCall(adminRoutes.unblockUser, { params: { id } });
export const revokeSessions = (id: number) => adminCall(adminRoutes.revokeUserSessions, { params: { id } });
export const deleteUser = (id: number) => adminCall(adminRoutes.deleteUser, { params: { id } });

export type AgreementVersion = AnswerOf<'publishAgreement'>;
export type NewAgreement = BodyOf<'publishAgreement'>;

export const listAgreementVersions = () => adminCall(adminRoutes.listAllAgreements);
export const publishAgreement = (input: NewAgreement) => adminCall(adminRoutes.publishAgreement, { body: input });

export const getCaptchaSettings = () => adminCall(adminRoutes.getCaptchaSettings);
export const setCaptchaPolicy = (pid: string, scene: string, policy: CaptchaPolicyName) =>
  adminCall(adminRoutes.setCaptchaPolicy, { body: { pid, scene, policy } });
export const clearCaptchaPolicy = (pid: string, scene: string) =>
  adminCall(adminRoutes.clearCaptchaPolicy, { body: { pid, scene } });
export const setCaptchaProvider = (pid: string, provider: CaptchaProviderName) =>
  adminCall(adminRoutes.setCaptchaProvider, { body: { pid, provider } });
export const clearCaptchaProvider = (pid: string) => adminCall(adminRoutes.clearCaptchaProvider, { body: { pid } });
/** `customEndpoint`: an endpoint outside the vendor's documented hosts, on purpose. */
export const setVendorKeys = (vendor: CaptchaVendorName, values: Record<string, string>, customEndpoint = false) =>
  adminCall(adminRoutes.setCaptchaVendorKeys, {
    body: { vendor, values, ...(customEndpoint ? { custom_endpoint: true } : {}) },
  });
/** Removes the console's values of `fields` (all of the vendor's when absent). */
export const clearVendorKeys = (vendor: CaptchaVendorName, fields?: string[]) =>
  adminCall(adminRoutes.clearCaptchaVendorKeys, { body: { vendor, fields } });

export interface AuditFilter {
  action?: string | undefined;
  /** A group of actions (`AUDIT_GROUPS`), such as every bulk action of schools. */
  group?: AuditGroup | undefined;
  operator?: number | undefined;
}

export const listAudit = (filter: AuditFilter, before: number | undefined, limit: number) =>
  adminCall(adminRoutes.listAudit, {
    query: { action: filter.action || undefined, group: filter.group, operator: filter.operator, before, limit },
  });

/** The auditor's CSV of the audit log or of the reads of people's records (the export is audited). */
export const exportAuditLog = (log: 'audit' | 'reads') => adminCall(adminRoutes.exportAuditLog, { query: { log } });

export const listOperators = () => adminCall(adminRoutes.listOperators);
/** Who is signed in: their duties, whether their password must be changed first, the idle time-out. */
export const operatorSelf = () => adminCall(adminRoutes.operatorSelf);

/** The console's calls for staff access approvals, data-rights requests and the yearly report (typed by the route table). */
import { type AnswerOf, adminRoutes } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export type StaffAccessList = AnswerOf<'listStaffAccess'>;
export type DataRequestRow = AnswerOf<'listDataRequests'>[number];

export const listStaffAccess = () => adminCall(adminRoutes.listStaffAccess);
export const requestStaffAccess = (userId: number, reason: string) =>
  adminCall(adminRoutes.requestStaffAccess, { body: { user_id: userId, reason } });
export const approveStaffAccess = (id: number) => adminCall(adminRoutes.approveStaffAccess, { params: { id } });
export const refuseStaffAccess = (id: number) => adminCall(adminRoutes.refuseStaffAccess, { params: { id } });

export const listDataRequests = (status: 'open' | 'all') =>
  adminCall(adminRoutes.listDataRequests, { query: { status } });
export const closeDataRequest = (id: number, status: 'done' | 'refused', reason?: string) =>
  adminCall(adminRoutes.closeDataRequest, { params: { id }, body: { status, ...(reason ? { reason } : {}) } });

export const yearlyReport = (year: number) => adminCall(adminRoutes.yearlyReport, { query: { year } });

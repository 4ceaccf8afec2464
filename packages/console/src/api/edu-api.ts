/** The console's calls for the education layer: schools, their quotas and teacher approvals (typed by the route table). */
import { type AnswerOf, adminRoutes, type BodyOf } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export type School = AnswerOf<'listSchools'>[number];
export type TeacherRequest = AnswerOf<'listTeacherRequests'>[number];
export type NewSchool = BodyOf<'addSchool'>;

export const listSchools = () => adminCall(adminRoutes.listSchools);
export const addSchool = (school: NewSchool) => adminCall(adminRoutes.addSchool, { body: school });
export const setSchoolQuota = (id: number, dailyBatches: number) =>
  adminCall(adminRoutes.setSchoolQuota, { params: { id }, body: { daily_batches: dailyBatches } });

export const listTeacherRequests = () => adminCall(adminRoutes.listTeacherRequests);
export const approveTeacher = (schoolId: number, userId: number) =>
  adminCall(adminRoutes.approveTeacherByOperator, { params: { id: schoolId, user_id: userId } });
export const refuseTeacher = (schoolId: number, userId: number) =>
  adminCall(adminRoutes.refuseTeacherByOperator, { params: { id: schoolId, user_id: userId } });

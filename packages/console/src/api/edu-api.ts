/**
 * The console's calls for the education layer: schools, their quotas, teacher approvals and sign-in
 * connectors (typed by the route table).
 */
import { type AnswerOf, adminRoutes, type BodyOf } from '@edupass/protocol';
import { adminCall } from './admin-call.ts';

export type School = AnswerOf<'listSchools'>[number];
export type TeacherRequest = AnswerOf<'listTeacherRequests'>[number];
export type NewSchool = BodyOf<'addSchool'>;

/** Schools, newest first: without `before`, the first page (every school, up to the server's bound, without `limit`). */
export const listSchools = (before?: number, limit?: number) =>
  adminCall(adminRoutes.listSchools, { query: { before, limit } });
export const addSchool = (school: NewSchool) => adminCall(adminRoutes.addSchool, { body: school });
export const setSchoolQuota = (id: number, dailyBatches: number) =>
  adminCall(adminRoutes.setSchoolQuota, { params: { id }, body: { daily_batches: dailyBatches } });

/** Teacher requests, the waiting ones first; `before` the last row's `cursor`; of one school with `schoolId`. */
export const listTeacherRequests = (before: string | undefined, limit: number, schoolId?: number) =>
  adminCall(adminRoutes.listTeacherRequests, { query: { before, limit, school_id: schoolId } });
export const approveTeacher = (schoolId: number, userId: number) =>
  adminCall(adminRoutes.approveTeacherByOperator, { params: { id: schoolId, user_id: userId } });
export const refuseTeacher = (schoolId: number, userId: number) =>
  adminCall(adminRoutes.refuseTeacherByOperator, { params: { id: schoolId, user_id: userId } });

export type ConsentText = AnswerOf<'getConsentText'>;
export type SchoolAgreementInput = BodyOf<'recordSchoolAgreement'>;

export const getConsentText = () => adminCall(adminRoutes.getConsentText);
export const saveConsentText = (text: Pick<ConsentText, 'zh-CN' | 'en'>) =>
  adminCall(adminRoutes.saveConsentText, { body: text });
export const recordSchoolAgreement = (id: number, agreement: SchoolAgreementInput) =>
  adminCall(adminRoutes.recordSchoolAgreement, { params: { id }, body: agreement });
export const endSchoolAgreement = (id: number) => adminCall(adminRoutes.endSchoolAgreement, { params: { id } });

/** Schools' sign-in connectors (CAS, SAML federation, OAuth2 / OIDC platform): settings carry no secret. */
export type SchoolConnector = AnswerOf<'listSchoolConnectors'>[number];
export type NewSchoolConnector = BodyOf<'addSchoolConnector'>;

export const listSchoolConnectors = () => adminCall(adminRoutes.listSchoolConnectors);
export const addSchoolConnector = (schoolId: number, connector: NewSchoolConnector) =>
  adminCall(adminRoutes.addSchoolConnector, { params: { id: schoolId }, body: connector });
export const setSchoolConnectorEnabled = (id: number, enabled: boolean) =>
  adminCall(adminRoutes.editSchoolConnector, { params: { id }, body: { enabled } });
/** Sets a connector's name and the settings given (a blank client secret keeps the sealed one). */
export const editSchoolConnector = (id: number, name: string, settings: Record<string, unknown>) =>
  adminCall(adminRoutes.editSchoolConnector, { params: { id }, body: { name, settings } });
export const setSchoolConnectorMapping = (id: number, mapping: Record<string, unknown>) =>
  adminCall(adminRoutes.setSchoolConnectorMapping, { params: { id }, body: { mapping } });

export type RosterImport = AnswerOf<'previewRosterImport'>;
export const previewRosterImport = (fileBase64: string, schoolId?: number) =>
  adminCall(adminRoutes.previewRosterImport, {
    body: { file_base64: fileBase64, ...(schoolId === undefined ? {} : { school_id: schoolId }) },
  });
export const confirmRosterImport = (id: number, acceptRemovals: boolean) =>
  adminCall(adminRoutes.confirmRosterImport, { params: { id }, body: { accept_removals: acceptRemovals } });

export type AddressBook = AnswerOf<'listAddressBooks'>[number];
export const listAddressBooks = () => adminCall(adminRoutes.listAddressBooks);
export const addAddressBook = (
  schoolId: number,
  book: { vendor: string; app_id: string; secret: string; schedule: string },
) => adminCall(adminRoutes.addAddressBook, { params: { id: schoolId }, body: book });
export const setAddressBookSchedule = (id: number, schedule: string) =>
  adminCall(adminRoutes.editAddressBook, { params: { id }, body: { schedule } });
export const syncAddressBook = (id: number) => adminCall(adminRoutes.syncAddressBook, { params: { id } });

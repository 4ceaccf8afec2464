/**
 * "Who read my record" (issue #32 item 3): what a person is shown about who had their data — the
 * teachers' and operators' reads of the access log (services/edu/access-log.ts), the applications
 * they granted access to (the identity provider's live grants), and the copies of their data made
 * (export requests, services/account/data-requests.ts). An adult sees their own
 * (`GET /edu/me/access-log`); a linked guardian sees the child's (`GET /edu/guardian/children/:id/access-log`).
 */
import type { Context } from '../../context.ts';
import { dataRequests } from '../../store/admin/data-requests.ts';
import { accessLogOf } from '../../store/edu/access-log.ts';
import { listApplicationRows } from '../../store/identity/applications.ts';
import { findModelsOfAccount } from '../../store/identity/oidc-models.ts';
import { requireGuardian } from '../edu/family/guardian-requests.ts';

/** The last this many applications and copies; the reads a page holds at most, and without `limit`. */
const SHOWN_MAX = 100;

interface GrantPayload {
  clientId?: string;
  iat?: number;
  openid?: { scope?: string };
}

const grantedApplications = async (ctx: Context, userId: number) => {
  const grants = await findModelsOfAccount(ctx.db, 'Grant', String(userId), ctx.now());
  if (grants.length === 0) return [];
  const names = new Map((await listApplicationRows(ctx.db)).map((a) => [a.client_id, a.name]));
  return grants
    .map((row) => JSON.parse(row.payload) as GrantPayload)
    .filter((grant) => typeof grant.clientId === 'string')
    .map((grant) => ({
      client_id: grant.clientId ?? '',
      name: names.get(grant.clientId ?? '') ?? grant.clientId ?? '',
      scope: grant.openid?.scope ?? '',
      at: (grant.iat ?? 0) * 1000,
    }))
    .sort((a, b) => b.at - a.at)
    .slice(0, SHOWN_MAX);
};

/**
 * A teacher as the person's school knows them: the name they gave it ("王老师"), else their real name,
 * and the school's name; both null for anyone else (a guardian is named by relation, an operator by role).
 */
const teacherAsKnown = (row: {
  reader_role: string;
  reader_given_name: string | null;
  reader_fullname: string | null;
  reader_school_name: string | null;
}) =>
  row.reader_role === 'teacher'
    ? {
        reader_staff_name: row.reader_given_name || row.reader_fullname?.trim() || null,
        reader_school_name: row.reader_school_name ?? null,
      }
    : { reader_staff_name: null, reader_school_name: null };

/** Which page of the reads: after the read `cursor` (the `next_cursor` of the page before), `limit` of them. */
export interface ReadsPage {
  cursor?: number | undefined;
  limit?: number | undefined;
}

/**
 * A page of the reads of a person's record, newest first, with `next_cursor` while more follow. The
 * first page also has the applications and the copies made; a later one (with `cursor`) only reads.
 */
export const recordReads = async (ctx: Context, subjectId: number, page: ReadsPage = {}) => {
  const limit = Math.min(Math.max(page.limit ?? SHOWN_MAX, 1), SHOWN_MAX);
  const first = page.cursor === undefined;
  const [reads, applications, exports] = await Promise.all([
    accessLogOf(ctx.db, subjectId, { after: page.cursor, limit }),
    first ? grantedApplications(ctx, subjectId) : [],
    first ? dataRequests(ctx.db, { open: false, limit: SHOWN_MAX, userId: subjectId, kind: 'export' }) : [],
  ]);
  return {
    next_cursor: reads.length === limit ? Number(reads.at(-1)?.id) : undefined,
    reads: reads.map((row) => ({
      reader_id: Number(row.reader_id),
      reader_name: row.reader_name ?? '',
      reader_relation: row.reader_relation ?? null,
      ...teacherAsKnown(row),
      reader_role: row.reader_role,
      fields: row.fields.split(','),
      purpose: row.purpose,
      reason: row.reason,
      at: Number(row.created_at),
    })),
    applications,
    exports: exports.map((row) => ({ requested_by: row.requested_by, status: row.status, at: Number(row.created_at) })),
  };
};

/** A guardian's view of the child's record reads: E_2 unless the caller is a linked guardian. */
export const childRecordReads = async (ctx: Context, guardianId: number, childId: number, page: ReadsPage = {}) => {
  await requireGuardian(ctx, guardianId, childId);
  return recordReads(ctx, childId, page);
};

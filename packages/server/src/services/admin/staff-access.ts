/**
 * Staff access to minors' records is asked for and logged (Regulations on the Protection of Minors
 * Online; issue #31 item 5). Every operator read of a person's record writes an access-log row
 * (services/edu/access-log.ts). For a minor (any age band under 18), the operator gives a reason,
 * kept in the row; where the operator turned approvals on (STAFF_ACCESS_APPROVAL=1), the read also
 * needs another operator's approval of a request naming that person, running until its expiry
 * (STAFF_ACCESS_APPROVAL_HOURS). Without one the record is not shown: E_4, saying what to do.
 */
import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, fail, invalidRequest } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import {
  approvalRequests,
  decideApproval,
  findApproval,
  insertApprovalRequest,
  liveApproval,
} from '../../store/admin/staff-access.ts';
import type { User } from '../../store/schema.ts';
import { type AccountField, logReads, type ReadPurpose } from '../edu/access-log.ts';
import { audit } from './operations.ts';

/** A person under 18 by their age band (none known: taken for an adult, as before bands existed). */
export const isMinor = (user: Pick<User, 'age_band'>) => user.age_band !== null && user.age_band !== 'adult';

const REASON_MAX = 500;

export const reasonOf = (reason: string | undefined) => {
  const given = reason?.trim() ?? '';
  if (given === '' || given.length > REASON_MAX) {
    throw invalidRequest(`reason: say why you need to read this minor's record (1–${REASON_MAX} characters).`);
  }
  return given;
};

export const NEEDS_APPROVAL = "Reading a minor's record needs another operator's approval. Ask for one first.";

/**
 * An operator is about to be shown `fields` of the person's record: for a minor, checks the reason
 * and (approvals on) the approval, then logs the read. Call it before the record leaves the server.
 */
export const operatorRead = async (
  ctx: Context,
  operatorId: number,
  user: Pick<User, 'id' | 'age_band'>,
  fields: readonly AccountField[],
  purpose: ReadPurpose,
  reason?: string,
) => {
  let given: string | undefined;
  if (isMinor(user) && user.id !== operatorId) {
    given = reasonOf(reason);
    if (ctx.config.staffAccessApproval && !(await liveApproval(ctx.db, operatorId, user.id, ctx.now()))) {
      throw new ApiError('E_4', NEEDS_APPROVAL);
    }
  }
  await logReads(ctx, {
    readerId: operatorId,
    role: 'operator',
    subjectIds: [user.id],
    fields,
    purpose,
    reason: given,
  });
};

/** An operator asks to read a person's record, for a reason. */
export const requestStaffAccess = async (
  ctx: Context,
  operatorId: number,
  subjectId: number,
  reason: string | undefined,
) => {
  const given = reasonOf(reason);
  (await findUserById(ctx.db, subjectId)) ?? fail('AC3_3');
  const id = await insertApprovalRequest(ctx.db, {
    requested_by: operatorId,
    subject_id: subjectId,
    reason: given,
    created_at: ctx.now(),
  });
  await audit(ctx, operatorId, 'staff_access.request', `user:${subjectId}`, `#${id}`);
  return approvalView(ctx, id);
};

/** Another operator approves (until the configured expiry) or refuses; nobody decides their own. */
export const decideStaffAccess = async (ctx: Context, operatorId: number, id: number, approve: boolean) => {
  const found = (await findApproval(ctx.db, id)) ?? fail('E_2');
  if (Number(found.requested_by) === operatorId)
    throw new ApiError('E_4', 'Another operator must decide this request.');
  const now = ctx.now();
  const decided = await decideApproval(ctx.db, id, {
    status: approve ? 'approved' : 'refused',
    decided_by: operatorId,
    decided_at: now,
    expires_at: approve ? now + ctx.config.staffAccessApprovalHours * HOUR_MS : null,
  });
  if (!decided) throw invalidRequest('This request is decided already.');
  await audit(
    ctx,
    operatorId,
    approve ? 'staff_access.approve' : 'staff_access.refuse',
    `user:${found.subject_id}`,
    `#${id} asked by operator ${found.requested_by}`,
  );
  return approvalView(ctx, id);
};

/** How far back the console lists decided requests beside the pending ones. */
const DECIDED_SHOWN_MS = 30 * DAY_MS;
const APPROVALS_PAGE = 200;

const approvalRow = (row: Awaited<ReturnType<typeof approvalRequests>>[number]) => ({
  id: Number(row.id),
  requested_by: Number(row.requested_by),
  requested_by_name: row.requested_by_name ?? '',
  subject_id: Number(row.subject_id),
  reason: row.reason,
  status: row.status,
  decided_by: row.decided_by === null ? null : Number(row.decided_by),
  decided_by_name: row.decided_by_name ?? '',
  decided_at: row.decided_at === null ? null : Number(row.decided_at),
  expires_at: row.expires_at === null ? null : Number(row.expires_at),
  created_at: Number(row.created_at),
});

/** The console's list: what waits for a decision, then what was decided in the last 30 days; and whether approvals are on. */
export const staffAccessRequests = async (ctx: Context) => ({
  approvals_required: ctx.config.staffAccessApproval,
  approval_hours: ctx.config.staffAccessApprovalHours,
  requests: (await approvalRequests(ctx.db, ctx.now() - DECIDED_SHOWN_MS, APPROVALS_PAGE)).map(approvalRow),
});

const approvalView = async (ctx: Context, id: number) =>
  (await staffAccessRequests(ctx)).requests.find((r) => r.id === id) ?? fail('E_2');

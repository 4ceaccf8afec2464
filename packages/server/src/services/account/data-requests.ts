/**
 * Data-rights requests tracked (PIPL arts. 44–47 and 50): each export, correction, deletion or
 * objection is a request with a due date, a status and, where refused, the reason. Deletion opens one
 * when it is asked for and closes it when the account is erased (or cancels it when the owner keeps
 * the account); an export opens and closes its own; corrections and objections that reach the
 * operator some other way are recorded from the console. The console lists them, the late ones
 * marked; the yearly report counts them.
 *
 * The due date: DATA_REQUEST_DUE_WORKING_DAYS working days (default 15, the answering time of
 * GB/T 35273-2020 §8.7) after the day it was made, counted in China time, Saturdays and Sundays
 * skipped. Public holidays and their make-up working days are not known to the product: an operator
 * who must allow for them sets more days.
 */
import { CHINA_OFFSET_MS, DAY_MS } from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { findUserById } from '../../store/account/users.ts';
import {
  closeDataRequest,
  dataRequests,
  findDataRequest,
  insertDataRequest,
  openRequestOf,
} from '../../store/admin/data-requests.ts';
import type { DataRequestsTable } from '../../store/admin/rights-schema.ts';
import { audit } from '../admin/operations.ts';

export type RequestKind = DataRequestsTable['kind'];
export const REQUEST_KINDS: readonly RequestKind[] = ['export', 'correction', 'deletion', 'objection'];

/** The end of the `workingDays`-th working day after the day of `from` (China time). */
export const dueAfter = (from: number, workingDays: number): number => {
  let dayStart = Math.floor((from + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS;
  for (let left = workingDays; left > 0; ) {
    dayStart += DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return dayStart + DAY_MS - 1 - CHINA_OFFSET_MS;
};

/** Records a request made now; answers its id. */
export const openDataRequest = (
  ctx: Pick<Context, 'db' | 'now' | 'config'>,
  userId: number,
  kind: RequestKind,
  requestedBy: string,
  detail = '',
) => {
  const now = ctx.now();
  return insertDataRequest(ctx.db, {
    user_id: userId,
    kind,
    requested_by: requestedBy,
    status: 'open',
    detail,
    refusal_reason: null,
    created_at: now,
    due_at: dueAfter(now, ctx.config.dataRequestDueWorkingDays),
  });
};

/** Closes the person's open request of `kind` (deletion: erased, or kept by its owner); none open, nothing. */
export const closeOpenRequest = async (
  ctx: Pick<Context, 'db' | 'now'>,
  userId: number,
  kind: RequestKind,
  status: 'done' | 'cancelled',
) => {
  const open = await openRequestOf(ctx.db, userId, kind);
  if (open) await closeDataRequest(ctx.db, Number(open.id), { status, refusal_reason: null, closed_at: ctx.now() });
};

/**
 * The request answered now: the person's open one of `kind` closes as done, or, when none was open
 * (an export built at once, a deletion without grace), one is recorded as made and answered now.
 */
export const settleRequest = async (
  ctx: Pick<Context, 'db' | 'now' | 'config'>,
  userId: number,
  kind: RequestKind,
  requestedBy: string,
) => {
  const id = (await openRequestOf(ctx.db, userId, kind))?.id ?? (await openDataRequest(ctx, userId, kind, requestedBy));
  await closeDataRequest(ctx.db, Number(id), { status: 'done', refusal_reason: null, closed_at: ctx.now() });
};

const REQUEST_PAGE = 500;

const requestView = (now: number) => (row: Awaited<ReturnType<typeof dataRequests>>[number]) => ({
  id: Number(row.id),
  user_id: Number(row.user_id),
  kind: row.kind,
  requested_by: row.requested_by,
  status: row.status,
  detail: row.detail,
  refusal_reason: row.refusal_reason,
  created_at: Number(row.created_at),
  due_at: Number(row.due_at),
  closed_at: row.closed_at === null ? null : Number(row.closed_at),
  /** Answered after its due date, or still open past it. */
  late: (row.closed_at === null ? now : Number(row.closed_at)) > Number(row.due_at),
});

export type DataRequestView = ReturnType<ReturnType<typeof requestView>>;

/** The console's list, newest first; `open` for the waiting ones only. */
export const listDataRequests = async (
  ctx: Context,
  query: { status?: string | undefined; user_id?: number | undefined },
) => {
  if (query.status !== undefined && query.status !== 'open' && query.status !== 'all') {
    throw invalidRequest('status: open or all.');
  }
  const rows = await dataRequests(ctx.db, {
    open: query.status === 'open',
    limit: REQUEST_PAGE,
    userId: query.user_id,
  });
  return rows.map(requestView(ctx.now()));
};

const DETAIL_MAX = 2000;

/** An operator records a correction or objection that reached them (by e-mail, letter, phone). */
export const recordRequestByOperator = async (
  ctx: Context,
  operatorId: number,
  input: { user_id: number; kind: string; detail: string },
) => {
  if (input.kind !== 'correction' && input.kind !== 'objection') {
    throw invalidRequest('kind: correction or objection (exports and deletions record themselves).');
  }
  const detail = input.detail.trim();
  if (detail === '' || detail.length > DETAIL_MAX)
    throw invalidRequest(`detail: say what was asked (1–${DETAIL_MAX} characters).`);
  (await findUserById(ctx.db, input.user_id)) ?? fail('AC3_3');
  const id = await openDataRequest(ctx, input.user_id, input.kind, 'user', detail);
  await audit(ctx, operatorId, 'data_request.record', `user:${input.user_id}`, `${input.kind} #${id}`);
  return requestView(ctx.now())((await findDataRequest(ctx.db, id)) ?? fail('E_2'));
};

/** An operator answers an open request: done, or refused with the reason the person is told. */
export const closeRequestByOperator = async (
  ctx: Context,
  operatorId: number,
  id: number,
  input: { status: string; reason?: string | undefined },
) => {
  if (input.status !== 'done' && input.status !== 'refused') throw invalidRequest('status: done or refused.');
  const reason = input.reason?.trim() ?? '';
  if (input.status === 'refused' && (reason === '' || reason.length > DETAIL_MAX)) {
    throw invalidRequest(`reason: a refusal says why (1–${DETAIL_MAX} characters).`);
  }
  const found = (await findDataRequest(ctx.db, id)) ?? fail('E_2');
  const closed = await closeDataRequest(ctx.db, id, {
    status: input.status,
    refusal_reason: input.status === 'refused' ? reason : null,
    closed_at: ctx.now(),
  });
  if (!closed) throw invalidRequest('This request is answered already.');
  await audit(ctx, operatorId, 'data_request.close', `user:${found.user_id}`, `${found.kind} #${id} ${input.status}`);
  return requestView(ctx.now())((await findDataRequest(ctx.db, id)) ?? fail('E_2'));
};

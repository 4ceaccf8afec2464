/**
 * Guardianship the family controls. A guardian code (the child's, or a teacher's for a letter or the
 * login card) spent while the child already has a guardian does not link at once: it is a request the
 * child's guardians see, with the requester's name, masked phone and relation, and approve or refuse.
 * Nobody deciding within EDU_GUARDIAN_WAIT_DAYS approves it (the guardians were told when it was
 * asked). Until then the requester is no guardian at all: no record, export, deletion, consent
 * withdrawal or device ending (services/edu/access.ts answers E_2). Where the child has no guardian
 * yet the code links at once (the family's first link), but a first guardian who did not give the
 * consent takes no copy of the child's data until the same days have passed (`export_from`). The child
 * and every guardian are told, by SMS or e-mail (services/account/notices.ts' way), when a guardian
 * is added.
 */
import { DAY_MS, type GuardianRelation } from '@edupass/protocol';
import type { Context } from '../../../context.ts';
import { ApiError, invalidRequest } from '../../../errors.ts';
import { findUserById, lockUserRow } from '../../../store/account/users.ts';
import {
  askToLink,
  decideGuardianRequest,
  dueGuardianRequests,
  findGuardianRequest,
  requestsBy,
  requestsToDecide,
} from '../../../store/edu/family/guardian-requests.ts';
import {
  consentRecordsOf,
  guardianContactsOf,
  guardianRow,
  hasGuardianRow,
  linkGuardian,
} from '../../../store/edu/family/guardians.ts';
import { type NoticeTarget, notifyPerson } from '../../account/notices.ts';
import { maskPhone } from '../../account/views.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { requireGuardianOf } from '../access.ts';
import { minorModeChanged } from './minor-mode.ts';

/** Requests settled by the waiting period in one pass at most (the sweep takes the rest an hour later). */
const SETTLE_BATCH = 50;
const MINE_MAX = 20;

export const guardianWaitMs = (ctx: Pick<Context, 'config'>) => ctx.config.eduGuardianWaitDays * DAY_MS;

const RELATION_WORDS: Record<string, [zh: string, en: string]> = {
  mother: ['妈妈', 'mother'],
  father: ['爸爸', 'father'],
  grandparent: ['祖父母/外祖父母', 'grandparent'],
  other: ['其他监护人', 'other guardian'],
};

const dateOf = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Sends one notice to each person's phone and e-mail (services/account/notices.ts). */
const tell = async (ctx: Context, people: NoticeTarget[], kind: string, zh: string, en: string) => {
  const site = ctx.config.site.name;
  const notice = { kind, subject: `${site} 家长关联提醒 · Guardian notice`, text: `【${site}】${zh} ${site}: ${en}` };
  for (const person of people) await notifyPerson(ctx, person, notice);
};

const nameOf = (user: { nickname: string | null; fullname: string | null }) => user.nickname || user.fullname || '';

/** Tells the child and every guardian (the new one included) that `guardianId` was added. */
export const tellGuardianAdded = async (ctx: Context, childId: number, guardianId: number, relation: string) => {
  const [child, guardian, guardians] = await Promise.all([
    findUserById(ctx.db, childId),
    findUserById(ctx.db, guardianId),
    guardianContactsOf(ctx.db, childId),
  ]);
  if (!child || !guardian) return;
  const [zhRelation, enRelation] = RELATION_WORDS[relation] ?? RELATION_WORDS.other ?? ['', ''];
  const who = nameOf(guardian);
  const phone = maskPhone(guardian.phone);
  await tell(
    ctx,
    [child, ...guardians.map((g) => ({ id: Number(g.id), phone: g.phone, email: g.email }))],
    'guardian_added',
    `${who}（${phone}，${zhRelation}）已成为 ${nameOf(child)} 的家长。如不认识此人，请在账号中心查看家长，并联系网站管理员。`,
    `${who} (${phone}, ${enRelation}) is now a guardian of ${nameOf(child)}. If you do not know this person, look at the guardians in the account centre and contact the site's operator.`,
  );
};

/** Tells the child's guardians that someone asks to be linked, and when it is approved if nobody decides. */
const tellRequested = async (
  ctx: Context,
  childId: number,
  requester: NoticeTarget & { nickname: string | null; fullname: string | null },
  relation: string,
  opensAt: number,
) => {
  const [child, guardians] = await Promise.all([findUserById(ctx.db, childId), guardianContactsOf(ctx.db, childId)]);
  if (!child) return;
  const [zhRelation, enRelation] = RELATION_WORDS[relation] ?? RELATION_WORDS.other ?? ['', ''];
  const who = nameOf(requester);
  const phone = maskPhone(requester.phone);
  const day = dateOf(opensAt);
  await tell(
    ctx,
    guardians.map((g) => ({ id: Number(g.id), phone: g.phone, email: g.email })),
    'guardian_requested',
    `${who}（${phone}，${zhRelation}）请求成为 ${nameOf(child)} 的家长。请到家长中心同意或拒绝；如无人处理，将于 ${day} 自动同意。`,
    `${who} (${phone}, ${enRelation}) asks to become a guardian of ${nameOf(child)}. Approve or refuse it in the guardian area; if nobody decides, it is approved on ${day}.`,
  );
};

/** Whether the guardian gave the child's consent (a granted decision of theirs is on record). */
const consentedFor = async (ctx: Context, guardianId: number, childId: number) =>
  (await consentRecordsOf(ctx.db, childId)).some(
    (c) => Number(c.guardian_id) === guardianId && c.decision === 'granted',
  );

export type LinkOutcome = { child_id: number; state: 'linked' | 'pending'; opens_at: number | null };

/**
 * After a guardian code was spent: the family's first link links at once; any later one is a request
 * for the child's guardians. In one transaction holding the child's row, so that of parallel spends
 * on a child without a guardian only one is the first link.
 */
export const linkOrAsk = async (
  ctx: Context,
  childId: number,
  requesterId: number,
  relation: GuardianRelation,
  viaSchoolId: number | null,
): Promise<LinkOutcome> => {
  const requester = await findUserById(ctx.db, requesterId);
  const consented = await consentedFor(ctx, requesterId, childId);
  const outcome = await inTransaction(ctx, async (tx): Promise<LinkOutcome & { told: 'added' | 'asked' | null }> => {
    if (tx.store.dialect === 'postgres') await lockUserRow(tx.db, childId);
    const now = tx.now();
    if (await guardianRow(tx.db, requesterId, childId)) {
      return { child_id: childId, state: 'linked', opens_at: null, told: null };
    }
    if (!(await hasGuardianRow(tx.db, childId))) {
      await linkGuardian(tx.db, {
        child_id: childId,
        guardian_id: requesterId,
        relation,
        created_at: now,
        export_from: consented ? null : now + guardianWaitMs(tx),
      });
      await minorModeChanged(tx, childId);
      return { child_id: childId, state: 'linked', opens_at: null, told: 'added' };
    }
    const row = await askToLink(tx.db, {
      child_id: childId,
      requester_id: requesterId,
      relation,
      asked_at: now,
      opens_at: now + guardianWaitMs(tx),
      via_school_id: viaSchoolId,
    });
    const fresh = Number(row.asked_at) === now;
    return { child_id: childId, state: 'pending', opens_at: Number(row.opens_at), told: fresh ? 'asked' : null };
  });
  if (outcome.told === 'added') await tellGuardianAdded(ctx, childId, requesterId, relation);
  if (outcome.told === 'asked' && requester)
    await tellRequested(ctx, childId, requester, relation, outcome.opens_at ?? 0);
  return { child_id: outcome.child_id, state: outcome.state, opens_at: outcome.opens_at };
};

/**
 * Approves (a guardian, or the waiting period) or refuses a pending request: the state moves once
 * however many race, and only an approval links.
 */
const decide = async (
  ctx: Context,
  request: { id: number; child_id: number; requester_id: number; relation: string },
  decision: { state: 'approved' | 'refused'; by: number | null },
) => {
  const linked = await inTransaction(ctx, async (tx) => {
    if (tx.store.dialect === 'postgres') await lockUserRow(tx.db, request.child_id);
    const now = tx.now();
    const moved = await decideGuardianRequest(tx.db, request.id, {
      state: decision.state,
      decided_by: decision.by,
      decided_at: now,
      how: decision.by === null ? 'waited' : 'guardian',
    });
    if (!moved) return null;
    if (decision.state === 'refused') return false;
    const first = !(await hasGuardianRow(tx.db, request.child_id));
    await linkGuardian(tx.db, {
      child_id: request.child_id,
      guardian_id: request.requester_id,
      relation: request.relation,
      created_at: now,
      export_from: null,
    });
    if (first) await minorModeChanged(tx, request.child_id);
    return true;
  });
  if (linked) await tellGuardianAdded(ctx, request.child_id, request.requester_id, request.relation);
  return linked;
};

/**
 * Approves the pending requests whose waiting period has passed (of one child or requester, or any):
 * the request path settles the caller's, the hourly sweep the rest. Answers how many.
 */
export const settleWaitedRequests = async (ctx: Context, of: { childId?: number; requesterId?: number } = {}) => {
  let settled = 0;
  for (const row of await dueGuardianRequests(ctx.db, ctx.now(), of, SETTLE_BATCH)) {
    const request = {
      id: Number(row.id),
      child_id: Number(row.child_id),
      requester_id: Number(row.requester_id),
      relation: row.relation,
    };
    if (await decide(ctx, request, { state: 'approved', by: null })) settled++;
  }
  return { guardianRequestsApproved: settled };
};

/** `requireGuardianOf`, once the caller's own request that waited long enough is approved. */
export const requireGuardian = async (ctx: Context, guardianId: number, childId: number) => {
  await settleWaitedRequests(ctx, { requesterId: guardianId, childId });
  await requireGuardianOf(ctx, guardianId, childId);
};

/** What the caller has to decide (requests on their children) and what they asked for themselves. */
export const guardianRequests = async (ctx: Context, userId: number) => {
  await settleWaitedRequests(ctx, { requesterId: userId });
  const [toDecide, mine] = await Promise.all([requestsToDecide(ctx.db, userId), requestsBy(ctx.db, userId, MINE_MAX)]);
  return {
    to_decide: toDecide.map((r) => ({
      id: Number(r.id),
      child: { id: Number(r.child_id), nickname: r.child_nickname || r.child_fullname || '' },
      name: r.asker_nickname || r.asker_fullname || '',
      phone: maskPhone(r.asker_phone),
      relation: r.relation,
      /** The pupil's school, when the code came from a teacher there (a letter, the login card). */
      school: r.via_school ?? null,
      asked_at: Number(r.asked_at),
      opens_at: Number(r.opens_at),
    })),
    mine: mine.map((r) => ({
      id: Number(r.id),
      relation: r.relation,
      state: r.state,
      asked_at: Number(r.asked_at),
      opens_at: Number(r.opens_at),
      decided_at: r.decided_at === null ? null : Number(r.decided_at),
    })),
  };
};

/** A pending request a linked guardian of its child may decide; E_2 for anyone else. */
const requestToDecide = async (ctx: Context, guardianId: number, requestId: number) => {
  const row = await findGuardianRequest(ctx.db, requestId);
  if (!row || Number(row.requester_id) === guardianId) throw new ApiError('E_2');
  await requireGuardianOf(ctx, guardianId, Number(row.child_id));
  if (row.state !== 'pending') throw invalidRequest('This request was already decided.');
  return {
    id: Number(row.id),
    child_id: Number(row.child_id),
    requester_id: Number(row.requester_id),
    relation: row.relation,
  };
};

/** A linked guardian approves or refuses a pending request; E_1 when another decision came first. */
const decideAsGuardian = async (ctx: Context, guardianId: number, requestId: number, state: 'approved' | 'refused') => {
  const request = await requestToDecide(ctx, guardianId, requestId);
  if ((await decide(ctx, request, { state, by: guardianId })) === null) {
    throw invalidRequest('This request was already decided.');
  }
};

export const approveGuardianRequest = (ctx: Context, guardianId: number, requestId: number) =>
  decideAsGuardian(ctx, guardianId, requestId, 'approved');

export const refuseGuardianRequest = (ctx: Context, guardianId: number, requestId: number) =>
  decideAsGuardian(ctx, guardianId, requestId, 'refused');

/** The time from which the guardian may take a copy of the child's data; E_1 with the date before it. */
export const requireExportAllowed = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  const row = await guardianRow(ctx.db, guardianId, childId);
  const from = row?.export_from === null || row?.export_from === undefined ? null : Number(row.export_from);
  if (from !== null && from > ctx.now()) {
    throw invalidRequest(
      `A copy of the child's data can be taken from ${dateOf(from)}: a guardian who did not give the consent waits ${ctx.config.eduGuardianWaitDays} days after linking.`,
    );
  }
};

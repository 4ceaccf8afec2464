/**
 * `edupass audit verify`: walks each tamper-evident chain (store/admin/audit-chain.ts) from its anchor,
 * recomputing every link, and reports the first broken one: a row changed, a row missing before it, a
 * row moved (its place no longer matches what its link covers), a row slipped in without a place, an
 * anchor not written by the key's holder, or a head that points past the last row (rows cut from the
 * end). Retention's segments (`dropOldSegments`) keep the anchor, so a chain verifies after them.
 */
import type { Context } from '../../context.ts';
import {
  anchorMac,
  CHAINS,
  type ChainName,
  chainHeads,
  chainLink,
  chainPage,
  dropChainSegment,
  rowsOutsideChain,
} from '../../store/admin/audit-chain.ts';
import { SWEEP_BATCH } from '../../store/in-batches.ts';
import { safeEqual } from '../security/hashing.ts';

const PAGE = 1_000;

export type BreakReason = 'altered' | 'missing_before' | 'outside_chain' | 'anchor' | 'head';

export interface ChainCheck {
  chain: ChainName;
  /** Rows whose links were checked. */
  checked: number;
  /** Rows from before the chain began (migration 050), not linked. */
  before_chain: number;
  /** The last place retention dropped (0 when none) and its time. */
  anchor: { seq: number; at: number | null };
  /** The first broken link, if any: the row (its id, time and place) where the chain stops holding. */
  broken?: { reason: BreakReason; id: number | null; at: number | null; seq: number };
}

const checkChain = async (ctx: Pick<Context, 'db' | 'keys'>, chain: ChainName): Promise<ChainCheck> => {
  const key = ctx.keys.audit;
  const head = (await chainHeads(ctx.db))[chain];
  const outside = await rowsOutsideChain(ctx.db, chain);
  const anchorSeq = Number(head.anchor_seq);
  const result: ChainCheck = {
    chain,
    checked: 0,
    before_chain: outside.before,
    anchor: { seq: anchorSeq, at: head.anchor_at === null ? null : Number(head.anchor_at) },
  };
  if (
    anchorSeq > 0 &&
    !safeEqual(head.anchor_mac ?? '', anchorMac(key, chain, anchorSeq, head.anchor_link, result.anchor.at))
  ) {
    return { ...result, broken: { reason: 'anchor', id: null, at: result.anchor.at, seq: anchorSeq } };
  }
  let seq = anchorSeq;
  let link = anchorSeq === 0 ? '' : head.anchor_link;
  for (;;) {
    const rows = await chainPage(ctx.db, chain, seq, PAGE);
    for (const row of rows) {
      if (row.seq !== seq + 1) {
        return { ...result, broken: { reason: 'missing_before', id: row.id, at: row.at, seq: row.seq } };
      }
      const expected = chainLink(key, link, row.content);
      if (!safeEqual(row.link, expected)) {
        return { ...result, broken: { reason: 'altered', id: row.id, at: row.at, seq: row.seq } };
      }
      seq = row.seq;
      link = row.link;
      result.checked++;
    }
    if (rows.length < PAGE) break;
  }
  if (Number(head.seq) !== seq || head.link !== link) {
    return { ...result, broken: { reason: 'head', id: null, at: null, seq: Number(head.seq) } };
  }
  if (outside.slipped !== undefined) {
    const { id, at } = outside.slipped;
    return { ...result, broken: { reason: 'outside_chain', id: Number(id), at: Number(at), seq: 0 } };
  }
  return result;
};

/** Every chain checked, the audit's first. */
export const verifyAuditChains = async (ctx: Pick<Context, 'db' | 'keys'>) =>
  Promise.all(CHAINS.map((chain) => checkChain(ctx, chain)));

/** Retention: drops each chain's rows older than its cut-off, a whole segment at a time, keeping the anchor. */
export const dropOldSegments = async (
  ctx: Pick<Context, 'db' | 'keys'>,
  cutoffs: Record<ChainName, number>,
): Promise<Record<ChainName, number>> => {
  const dropped = { admin_audit: 0, edu_access_log: 0 };
  for (const chain of CHAINS) {
    for (;;) {
      const n = await dropChainSegment(ctx.db, ctx.keys.audit, chain, cutoffs[chain], SWEEP_BATCH);
      dropped[chain] += n;
      if (n === 0) break;
    }
  }
  return dropped;
};

const REASONS: Record<BreakReason, string> = {
  altered: 'its content or its link does not match the link before it (changed, or moved from its place)',
  missing_before: 'the row before it in the chain is missing (deleted)',
  outside_chain: 'it was written without a place in the chain',
  anchor: 'the anchor left by retention was not written with the audit key',
  head: 'the chain ends before its head: rows at its end are missing',
};

/** The lines `edupass audit verify` prints, and whether every chain holds. */
export const verifyReport = (checks: ChainCheck[]) => {
  const lines = checks.map((check) => {
    const from = check.anchor.seq > 0 ? ` from the anchor at place ${check.anchor.seq}` : '';
    const before = check.before_chain > 0 ? `; ${check.before_chain} rows from before the chain, not linked` : '';
    if (!check.broken) return `✓ ${check.chain}: ${check.checked} links hold${from}${before}.`;
    const { reason, id, at, seq } = check.broken;
    const row = id === null ? `at place ${seq}` : `row ${id} (place ${seq}, ${new Date(at ?? 0).toISOString()})`;
    return `✗ ${check.chain}: first broken link ${row}: ${REASONS[reason]}.`;
  });
  return { ok: checks.every((check) => !check.broken), lines };
};

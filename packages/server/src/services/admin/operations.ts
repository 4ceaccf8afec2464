/** What operators may do from the console; every change is recorded with who did it. */
import {
  type AgreementLanguage,
  AUDIT_GROUPS,
  type AuditAction,
  type AuditEntry,
  dutiesOf,
  type OperatorSelf,
  type OperatorSummary,
} from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import type { AgreementTextRow } from '../../store/account/agreement-languages.ts';
import { agreementTexts, insertAgreement } from '../../store/account/agreements.ts';
import { userOauths } from '../../store/account/oauths.ts';
import { findUserById, isUniqueViolation } from '../../store/account/users.ts';
import {
  allAgreementVersions,
  auditEntries,
  latestVersion,
  operatorAccounts,
  recordAudit,
  searchUsers,
  userSessions,
  userSignatures,
} from '../../store/admin/admin.ts';
import { endAllSessions, saveUser } from '../account/users.ts';
import { ACCOUNT_FIELDS, logReads } from '../edu/access-log.ts';
import { staffPasswordExpired } from '../passwords/staff-policy.ts';
import { securityEvent } from '../security/events.ts';
import { isWebUrlOrPath } from '../security/web-urls.ts';
import type { SignedInSession } from '../sessions/tokens.ts';
import { inTransaction } from '../webhooks/events.ts';
import { isMinor, operatorRead } from './staff-access.ts';

const PAGE_MAX = 100;

/** Records an operator's change; `detail` says what changed and never carries a secret. */
export const audit = (ctx: Context, operatorId: number, action: AuditAction, target: string, detail = '') =>
  recordAudit(ctx.db, ctx.keys.audit, { operator_id: operatorId, action, target, detail, at: ctx.now() });

/** What a search row shows of an adult, logged as read. */
const SEARCH_FIELDS = ['phone', 'email', 'username', 'nickname', 'avatar'] as const;
/** What the user page shows, logged as read: the record but the schools. */
const DETAIL_FIELDS = ACCOUNT_FIELDS.filter((field) => field !== 'school');

/**
 * A page of users. A minor's row shows only the number, role and dates, marked `minor`: their record
 * opens from the user page with a reason (staff-access.ts). The adults shown are logged as read.
 */
export const findUsers = async (
  ctx: Context,
  operatorId: number,
  q: string | undefined,
  cursor: number | undefined,
  limit = 30,
) => {
  const page = Math.min(Math.max(limit, 1), PAGE_MAX);
  const rows = await searchUsers(ctx.db, q, cursor, page);
  const items = rows.map(({ age_band, ...u }) =>
    isMinor({ age_band })
      ? {
          ...u,
          phone: null,
          email: null,
          username: null,
          nickname: null,
          avatar_url: '',
          blocked: u.blocked_at !== null,
          minor: true,
        }
      : { ...u, blocked: u.blocked_at !== null, minor: false },
  );
  await logReads(ctx, {
    readerId: operatorId,
    role: 'operator',
    subjectIds: items.filter((u) => !u.minor).map((u) => Number(u.id)),
    fields: SEARCH_FIELDS,
    purpose: 'user_search',
  });
  return { items, next_cursor: rows.length === page ? rows.at(-1)?.id : undefined };
};

/** The user page: logged as read; a minor's needs a reason, and an approval where required (staff-access.ts). */
export const userDetail = async (ctx: Context, operatorId: number, userId: number, reason?: string) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  await operatorRead(ctx, operatorId, user, DETAIL_FIELDS, 'user_detail', reason);
  const [oauths, agreements, sessions] = await Promise.all([
    userOauths(ctx.db, userId),
    userSignatures(ctx.db, userId),
    userSessions(ctx.db, userId),
  ]);
  return {
    user: {
      id: user.id,
      nickname: user.nickname ?? '',
      avatar_url: user.avatar_url,
      fullname: user.fullname,
      role: user.role,
      blocked: user.blocked_at !== null,
      blocked_at: user.blocked_at,
      created_at: user.created_at,
      minor: isMinor(user),
    },
    identities: {
      phone: user.phone ?? '',
      email: user.email ?? '',
      username: user.username ?? '',
      has_password: user.password_hash !== null,
      wechat: oauths.find((o) => o.provider === 'wechat')?.nickname ?? null,
      qq: oauths.find((o) => o.provider === 'qq')?.nickname ?? null,
    },
    agreements,
    sessions: sessions.map((s) => ({ ...s, live: s.revoked_at === null })),
  };
};

export const setBlocked = async (ctx: Context, operatorId: number, userId: number, blocked: boolean) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  if (user.id === operatorId) throw invalidRequest('Operators cannot block themselves.');
  const blockedAt = blocked ? ctx.now() : null;
  await inTransaction(ctx, async (tx) => {
    await saveUser(
      tx,
      userId,
      { blocked_at: blockedAt, updated_at: ctx.now() },
      {
        type: blocked ? 'user.blocked' : 'user.updated',
        userId,
        product: user.pid,
        data: blocked ? { blocked_at: blockedAt } : { changes: { blocked: false } },
      },
    );
    if (blocked) await endAllSessions(tx, user, 'blocked');
  });
  await audit(ctx, operatorId, blocked ? 'user.block' : 'user.unblock', `user:${userId}`);
  if (blocked) securityEvent(ctx, { event: 'user_blocked', userId, reason: `blocked by operator ${operatorId}` });
};

export const endUserSessions = async (ctx: Context, operatorId: number, userId: number) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  await endAllSessions(ctx, user, 'revoked_by_operator');
  await audit(ctx, operatorId, 'user.sessions.revoke', `user:${userId}`);
};

/** Every version, each with its texts in every language it has. */
export const agreementVersions = async (ctx: Context) => {
  const rows = await allAgreementVersions(ctx.db);
  const texts = await agreementTexts(
    ctx.db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => ({ ...row, texts: texts.get(Number(row.id)) ?? [] }));
};

export interface NewAgreementVersion {
  code: string;
  /** The Chinese text. */
  title?: string | undefined;
  content?: string | undefined;
  /** The English text. */
  title_en?: string | undefined;
  content_en?: string | undefined;
  url?: string | undefined;
  effective_at?: number | undefined;
}

const PUBLISH_ATTEMPTS = 5;

/** The texts of a new version: each language given whole (title and content), at least one. */
const textsOf = (input: NewAgreementVersion): AgreementTextRow[] => {
  const given: [AgreementLanguage, string | undefined, string | undefined, string][] = [
    ['zh-CN', input.title, input.content, 'title and content'],
    ['en', input.title_en, input.content_en, 'title_en and content_en'],
  ];
  const texts: AgreementTextRow[] = [];
  for (const [lang, title, content, fields] of given) {
    const named = title?.trim() ?? '';
    const written = content?.trim() ? content : '';
    if (named === '' && written === '') continue;
    if (named === '' || written === '') throw invalidRequest(`${fields}: give both, or neither.`);
    texts.push({ lang, title: named, content: written });
  }
  if (texts.length === 0)
    throw invalidRequest('Give the text in at least one language: title and content, or title_en and content_en.');
  return texts;
};

/** Inserts `input` as the version after the latest of its code. */
const insertNextVersion = async (ctx: Context, input: NewAgreementVersion, texts: AgreementTextRow[]) => {
  // Two operators publishing the same code at once both read the same latest version: the unique
  // (code, version) lets one win, and the other takes the next number.
  for (let attempt = 1; ; attempt++) {
    const version = (await latestVersion(ctx.db, input.code)) + 1;
    try {
      const agreement = await insertAgreement(
        ctx.db,
        {
          code: input.code,
          version,
          url: input.url ?? `/legal/${input.code}?version=${version}`,
          effective_at: input.effective_at ?? ctx.now(),
          created_at: ctx.now(),
        },
        texts,
      );
      return { ...agreement, texts };
    } catch (error) {
      if (attempt >= PUBLISH_ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
};

/** A new version of `code`: users who signed an older one are asked to sign again once it takes effect. */
export const publishAgreement = async (ctx: Context, operatorId: number, input: NewAgreementVersion) => {
  if (!/^[a-z][a-z0-9_-]{1,63}$/.test(input.code)) {
    throw invalidRequest('code must be lower-case letters, digits, - or _, starting with a letter.');
  }
  if (input.url !== undefined && !isWebUrlOrPath(input.url)) {
    throw invalidRequest('url must be an http(s) URL or a path on this site (/…).');
  }
  const texts = textsOf(input);
  const agreement = await insertNextVersion(ctx, input, texts);
  await audit(ctx, operatorId, 'agreement.publish', `agreement:${agreement.id}`, `${input.code} v${agreement.version}`);
  return agreement;
};

const AUDIT_PAGE_MAX = 500;
const displayName = (u: { nickname: string | null; username: string | null }) => u.nickname || u.username || '';

const groupActions = (group: string | undefined) => {
  if (group === undefined || group.trim() === '') return undefined;
  if (!Object.hasOwn(AUDIT_GROUPS, group))
    throw invalidRequest(`group: one of ${Object.keys(AUDIT_GROUPS).join(', ')}`);
  return AUDIT_GROUPS[group as keyof typeof AUDIT_GROUPS];
};

/** Newest first; `before` (an entry id) pages back, `action`, `group` (of actions) and `operator` (an id) narrow it. */
/** What the audit log shows an auditor: every operator's actions but their own (no one reads their own trail). */
export const auditLog = async (
  ctx: Context,
  auditorId: number,
  query: {
    limit?: number | undefined;
    before?: number | undefined;
    action?: string | undefined;
    group?: string | undefined;
    operator?: number | undefined;
  },
): Promise<AuditEntry[]> => {
  const rows = await auditEntries(ctx.db, {
    limit: Math.min(Math.max(query.limit ?? 100, 1), AUDIT_PAGE_MAX),
    before: query.before,
    action: query.action?.trim() || undefined,
    actions: groupActions(query.group),
    operatorId: query.operator,
    notOperatorId: auditorId,
  });
  return rows.map(({ operator_phone, operator_nickname, operator_username, ...row }) => ({
    ...row,
    operator_phone: operator_phone ?? '',
    operator_name: displayName({ nickname: operator_nickname, username: operator_username }),
  }));
};

/** The signed-in operator's duties, and whether their password must be changed first. */
export const operatorSelf = (ctx: Context, session: SignedInSession): OperatorSelf => ({
  id: session.userId,
  duties: dutiesOf(session.user.operator_duties),
  password_expired: staffPasswordExpired(ctx, session.user),
  idle_minutes: ctx.config.staffIdleMinutes,
});

export const operators = async (ctx: Context): Promise<OperatorSummary[]> =>
  (await operatorAccounts(ctx.db)).map((u) => ({ id: u.id, phone: u.phone ?? '', name: displayName(u) }));

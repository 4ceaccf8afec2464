/**
 * A copy of a person's data (PIPL art. 45). Asked for by the person (account centre, after a fresh
 * proof), a linked guardian (services/edu/access.ts decides who is one) or an operator on the person's
 * request (audited); a worker builds the zip under a lease (a `queued` row survives a restart), from
 * the export map (store/account/export-map.ts), the events store and the stored picture. Its link
 * works once, for DATA_EXPORT_LINK_HOURS, and is shown to whoever asked and sent to their e-mail.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AGREEMENT_LANGUAGES,
  type AgreementLanguage,
  type DataExport,
  EXPORT_DOWNLOAD_PATH,
  HOUR_MS,
} from '@edupass/protocol';
import type { Context } from '../../context.ts';
import { ApiError, fail } from '../../errors.ts';
import {
  claimQueuedExports,
  type ExportView,
  exportsAskedBy,
  failExport,
  finishExport,
  insertExport,
  type QueuedExport,
  readyExportByLink,
  spendExportLink,
} from '../../store/account/data-exports.ts';
import type { ExportRequester } from '../../store/account/data-rights-schema.ts';
import { EXPORT_AREAS, EXPORT_RULES, type ExportArea, type Row } from '../../store/account/export-map.ts';
import { findUserById } from '../../store/account/users.ts';
import { EVENT_COLUMNS } from '../../store/usage/event-columns.ts';
import type { EventCursor } from '../../store/usage/events-store.ts';
import { audit } from '../admin/operations.ts';
import { operatorRead } from '../admin/staff-access.ts';
import { ACCOUNT_FIELDS } from '../edu/access-log.ts';
import { requireExportAllowed, requireGuardian } from '../edu/family/guardian-requests.ts';
import { type LeaseWorker, startLeaseWorker } from '../platform/lease-worker.ts';
import { seal, unseal } from '../security/sealed-values.ts';
import { inTransaction, onNewEvents } from '../webhooks/events.ts';
import { readAvatar } from './avatar-files.ts';
import { closeOpenRequest, openDataRequest } from './data-requests.ts';
import { readme } from './export-readme.ts';
import { openExportZip } from './export-zip.ts';

/** Areas written as CSV tables (one part each); the others are JSON. */
const CSV_AREAS: ReadonlySet<ExportArea> = new Set(['sessions', 'access-log']);

/** The usage events' columns in the CSV: every stored one but the user's own id (the file's) and the dev flag. */
const EVENT_CSV_COLUMNS = EVENT_COLUMNS.filter((column) => column !== 'user_id' && column !== 'is_dev');

const EVENTS_PAGE = 5_000;
/** Attempts at building one export before it is given up (`failed`). */
const ATTEMPTS = 3;
/** Exports shown in a list. */
const LIST_MAX = 10;

const languageOf = (asked: string | undefined): AgreementLanguage =>
  AGREEMENT_LANGUAGES.find((lang) => lang.toLowerCase() === asked?.toLowerCase()) ?? AGREEMENT_LANGUAGES[0];

const linkName = (id: number) => `data-export:${id}`;
const linkHash = (secret: string) => createHash('sha256').update(secret).digest('hex');
const downloadUrl = (ctx: Context, secret: string) => `${ctx.config.publicUrl}${EXPORT_DOWNLOAD_PATH}/${secret}`;

const viewOf = (ctx: Context, row: ExportView): DataExport => {
  const secret = row.link_sealed === null ? undefined : unseal(ctx.keys.sealing, row.link_sealed, linkName(row.id));
  const expiresAt = row.link_expires_at === null ? null : Number(row.link_expires_at);
  const live = row.state === 'ready' && expiresAt !== null && expiresAt > ctx.now();
  return {
    id: Number(row.id),
    state: row.state === 'ready' && !live ? 'expired' : row.state,
    requested_at: Number(row.created_at),
    link_expires_at: expiresAt,
    download_url: live && secret !== undefined ? downloadUrl(ctx, secret) : null,
  };
};

/** Asks for an export of `userId`'s data for `requester`; one still being built is answered instead. */
const askForExport = async (
  ctx: Context,
  userId: number,
  requester: { by: ExportRequester; id: number },
  lang: string | undefined,
): Promise<DataExport> => {
  const [waiting] = (await exportsAskedBy(ctx.db, requester.id, userId, 1)).filter((row) => row.state === 'queued');
  if (waiting) return viewOf(ctx, waiting);
  // A data-rights request, due by DATA_REQUEST_DUE_WORKING_DAYS, answered when the zip is ready.
  const row = await inTransaction(ctx, async (tx) => {
    await openDataRequest(tx, userId, 'export', requester.by);
    return insertExport(tx.db, {
      user_id: userId,
      requested_by: requester.by,
      requester_id: requester.id,
      lang: languageOf(lang),
      created_at: ctx.now(),
    });
  });
  return viewOf(ctx, row);
};

const listExports = async (ctx: Context, requesterId: number, userId: number) => ({
  exports: (await exportsAskedBy(ctx.db, requesterId, userId, LIST_MAX)).map((row) => viewOf(ctx, row)),
});

/** The person's own export (the route asks for the fresh proof first). */
export const requestOwnExport = (ctx: Context, userId: number, lang: string | undefined) =>
  askForExport(ctx, userId, { by: 'user', id: userId }, lang);

export const ownExports = (ctx: Context, userId: number) => listExports(ctx, userId, userId);

/** A linked guardian's export of the child's data (E_2 for anyone else). */
export const requestChildExport = async (
  ctx: Context,
  guardianId: number,
  childId: number,
  lang: string | undefined,
) => {
  await requireExportAllowed(ctx, guardianId, childId);
  return askForExport(ctx, childId, { by: 'guardian', id: guardianId }, lang);
};

export const childExports = async (ctx: Context, guardianId: number, childId: number) => {
  await requireGuardian(ctx, guardianId, childId);
  return listExports(ctx, guardianId, childId);
};

/**
 * An operator's export of a user's data, on the user's request (audited). A copy of the whole record
 * is a read of it: a minor's asks what opening the record asks (a reason, and another operator's
 * approval where required), and the read is in the person's access log.
 */
export const requestUserExport = async (
  ctx: Context,
  operatorId: number,
  userId: number,
  { lang, reason }: { lang?: string | undefined; reason?: string | undefined },
) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  await operatorRead(ctx, operatorId, user, ACCOUNT_FIELDS, 'user_export', reason);
  const asked = await askForExport(ctx, userId, { by: 'operator', id: operatorId }, lang);
  await audit(ctx, operatorId, 'user.export', `user:${userId}`);
  return asked;
};

export const userExports = (ctx: Context, operatorId: number, userId: number) => listExports(ctx, operatorId, userId);

/** Writes every area of the person's data into the zip; answers the files written (for the README). */
const writeAreas = async (ctx: Context, zip: ReturnType<typeof openExportZip>, userId: number) => {
  const user = (await findUserById(ctx.db, userId)) ?? fail('AC3_3');
  const person = { id: user.id, phone: user.phone, email: user.email };
  const parts = new Map<ExportArea, Record<string, Row[]>>();
  for (const rule of Object.values(EXPORT_RULES)) {
    if (!('area' in rule)) continue;
    const area = parts.get(rule.area) ?? {};
    area[rule.part] = await rule.read(ctx.db, person);
    parts.set(rule.area, area);
  }
  const files: { name: string; area?: ExportArea }[] = [];
  for (const area of EXPORT_AREAS) {
    if (area === 'usage-events') {
      await writeUsageEvents(ctx, zip, userId);
      files.push({ name: `${area}.csv`, area });
    } else if (CSV_AREAS.has(area)) {
      const rows = Object.values(parts.get(area) ?? {}).flat();
      const csv = zip.csv(`${area}.csv`, Object.keys(rows[0] ?? {}));
      csv.rows(rows);
      csv.end();
      files.push({ name: `${area}.csv`, area });
    } else {
      zip.json(`${area}.json`, parts.get(area) ?? {});
      files.push({ name: `${area}.json`, area });
    }
  }
  const avatar = await readAvatar(ctx, user);
  if (avatar) {
    const name = `avatar.${avatar.name.split('.').at(-1) ?? 'webp'}`;
    zip.file(name, avatar.picture);
    files.push({ name });
  }
  return files;
};

/** The user's usage events, page by page from whichever events store is configured. */
const writeUsageEvents = async (ctx: Context, zip: ReturnType<typeof openExportZip>, userId: number) => {
  const csv = zip.csv('usage-events.csv', EVENT_CSV_COLUMNS);
  let after: EventCursor | undefined;
  for (;;) {
    const page = await ctx.events.userEventsAfter(userId, after, EVENTS_PAGE);
    csv.rows(page as unknown as Row[]);
    const last = page.at(-1);
    if (last === undefined || page.length < EVENTS_PAGE) break;
    after = { product_code: last.product_code, event_id: last.event_id };
  }
  csv.end();
};

/** The zip of `userId`'s data with its README in `lang`. */
export const buildExportZip = async (ctx: Context, userId: number, lang: AgreementLanguage) => {
  const zip = openExportZip();
  const files = await writeAreas(ctx, zip, userId);
  zip.file('README.txt', Buffer.from(readme(lang, files, ctx.now()), 'utf8'));
  return zip.finish();
};

const READY_WORDS = {
  subject: 'EduPass 数据副本已准备好 · Your copy of your data is ready',
  text: (url: string, hours: number) =>
    `【EduPass】你要的数据副本已准备好，请在 ${hours} 小时内下载，链接只能用一次：${url}\n` +
    `EduPass: the copy of the data you asked for is ready. Download it within ${hours} hours; the link works once: ${url}`,
};

/** Sends the link to the e-mail of whoever asked; without one, the account centre shows it. */
const sendLink = async (ctx: Context, requesterId: number, url: string) => {
  const requester = await findUserById(ctx.db, requesterId);
  if (!requester?.email) return;
  try {
    await ctx.delivery.notify?.({
      to: requester.email,
      channel: 'email',
      kind: 'data_export_ready',
      subject: READY_WORDS.subject,
      text: READY_WORDS.text(url, ctx.config.dataExportLinkHours),
    });
  } catch (error) {
    ctx.logger.warn({ err: error, export: requesterId }, 'data export link not sent; the account centre shows it');
  }
};

const build = async (ctx: Context, holder: string, job: QueuedExport) => {
  try {
    const file = await buildExportZip(ctx, Number(job.user_id), languageOf(job.lang));
    const secret = randomBytes(32).toString('base64url');
    const now = ctx.now();
    const done = await finishExport(ctx.db, holder, Number(job.id), {
      file,
      link_hash: linkHash(secret),
      link_sealed: seal(ctx.keys.sealing, secret, linkName(Number(job.id))),
      link_expires_at: now + ctx.config.dataExportLinkHours * HOUR_MS,
      finished_at: now,
    });
    if (Number(done.numUpdatedRows) === 1) {
      await closeOpenRequest(ctx, Number(job.user_id), 'export', 'done');
      await sendLink(ctx, Number(job.requester_id), downloadUrl(ctx, secret));
    }
  } catch (error) {
    const attempts = Number(job.attempts) + 1;
    ctx.logger.error({ err: error, export: job.id, attempts }, 'data export not built');
    await failExport(ctx.db, holder, Number(job.id), attempts, attempts >= ATTEMPTS, ctx.now());
  }
};

/** Exports built at once by one process. */
const BATCH = 2;
/** An export of many usage events takes a while; a lease that long is taken again only after a crash. */
const LEASE_MS = 15 * 60_000;

/** The worker building queued exports, woken when this process queues one and polling for others'. */
export const startExportWorker = (ctx: Context): LeaseWorker =>
  startLeaseWorker(ctx, {
    name: 'data export',
    pollMs: Math.max(ctx.config.webhooks.pollMs, 1000),
    leaseMs: LEASE_MS,
    batch: BATCH,
    claim: (lease, limit) => claimQueuedExports(ctx.store, lease, limit),
    attempt: (holder, job) => build(ctx, holder, job),
    wake: (run) => onNewEvents(ctx.store, run),
  });

/** The zip behind a link, once: E_2 for a link that is unknown, spent or expired. */
export const downloadExport = async (ctx: Context, secret: string): Promise<Buffer> => {
  const found = /^[A-Za-z0-9_-]{43}$/.test(secret)
    ? await readyExportByLink(ctx.db, linkHash(secret), ctx.now())
    : undefined;
  if (!found?.file || !(await spendExportLink(ctx.db, Number(found.id)))) {
    throw new ApiError('E_2', 'This download link is unknown, used already or expired. Ask for a new copy.');
  }
  return Buffer.from(found.file);
};

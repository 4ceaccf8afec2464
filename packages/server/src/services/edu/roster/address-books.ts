/**
 * Schools' home-school address books (WeCom 家校沟通, DingTalk K12) as a roster source: the operator
 * adds a school's app (its id and secret, sealed) and a schedule (`off`, `hourly`, `daily`). A sync
 * reads the whole book (adapters/wecom-school.ts, adapters/dingtalk-edu.ts), turns it into a roster
 * (book-roster.ts) and stores it as a roster job (jobs.ts), previewed like an uploaded file. One the
 * operator starts stays a preview to confirm; a scheduled one is applied at once unless it is held —
 * an address book's job is held by any removal of a person (jobs.ts `holdPercentOf`), which then waits
 * for the admin's confirmation (`accept_removals`) in the roster imports, like a held file. Each sync
 * leaves a report on the book: when, how long, the calls it took, the job and its counts, or why it
 * failed. The hourly sweep (services/platform/housekeeping.ts) runs the books that are due.
 */
import { DAY_MS, HOUR_MS, type RosterJob } from '@edupass/protocol';
import type { Selectable } from 'kysely';
import { type Book, BookApiError } from '../../../adapters/address-book.ts';
import { readDingtalkBook } from '../../../adapters/dingtalk-edu.ts';
import { ProviderUnreachableError } from '../../../adapters/provider-http.ts';
import { readWecomBook } from '../../../adapters/wecom-school.ts';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest } from '../../../errors.ts';
import { isUniqueViolation } from '../../../store/account/users.ts';
import {
  dueAddressBooks,
  findAddressBook,
  insertAddressBook,
  listAddressBooks,
  setBookReport,
  takeDueBook,
  updateAddressBook,
} from '../../../store/edu/roster/address-books.ts';
import type { AddressBooksTable } from '../../../store/edu/roster/roster-schema.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import { seal, unseal } from '../../security/sealed-values.ts';
import { eduAudit } from '../audit.ts';
import { type BookVendor, bookRoster } from './book-roster.ts';
import { confirmRosterImport, previewRoster } from './jobs.ts';

export const BOOK_VENDORS = ['wecom', 'dingtalk'] as const;
export const BOOK_SCHEDULES = { off: null, hourly: HOUR_MS, daily: DAY_MS } as const;
type Schedule = keyof typeof BOOK_SCHEDULES;

/** Books one sweep syncs at most; the others are due at the next. */
const SYNCS_PER_SWEEP = 20;

type Row = Selectable<AddressBooksTable>;

const secretName = (vendor: string, appId: string) => `address-book:${vendor}:${appId}`;

const view = (row: Row) => ({
  id: Number(row.id),
  school_id: Number(row.school_id),
  vendor: row.vendor,
  app_id: row.app_id,
  schedule: row.schedule,
  next_sync_at: row.next_sync_at === null ? null : Number(row.next_sync_at),
  last_report: row.last_report === null ? null : (JSON.parse(row.last_report) as Record<string, unknown>),
});

const checked = (input: { vendor?: string | undefined; schedule?: string | undefined }) => {
  if (input.vendor !== undefined && !(BOOK_VENDORS as readonly string[]).includes(input.vendor)) {
    throw invalidRequest(`vendor must be one of ${BOOK_VENDORS.join(', ')}.`);
  }
  if (input.schedule !== undefined && !Object.hasOwn(BOOK_SCHEDULES, input.schedule)) {
    throw invalidRequest(`schedule must be one of ${Object.keys(BOOK_SCHEDULES).join(', ')}.`);
  }
};

const nextSyncAt = (schedule: string, now: number) => {
  const every = BOOK_SCHEDULES[schedule as Schedule] ?? null;
  return every === null ? null : now + every;
};

export const addAddressBook = async (
  ctx: Context,
  operatorId: number,
  schoolId: number,
  input: { vendor: string; app_id: string; secret: string; schedule?: string | undefined },
) => {
  checked(input);
  if (!(await findSchool(ctx.db, schoolId))) fail('E_2');
  const schedule = input.schedule ?? 'off';
  try {
    const row = await insertAddressBook(ctx.db, {
      school_id: schoolId,
      vendor: input.vendor,
      app_id: input.app_id,
      secret_sealed: seal(ctx.keys.sealing, input.secret, secretName(input.vendor, input.app_id)),
      schedule,
      next_sync_at: nextSyncAt(schedule, ctx.now()),
      last_report: null,
      created_at: ctx.now(),
    });
    await eduAudit(ctx, operatorId, 'school.address_book.add', `school:${schoolId}`, `${input.vendor} ${schedule}`);
    return view(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidRequest(`This school has a ${input.vendor} address book already.`);
    throw error;
  }
};

/** The operator's schedule (and, with a new secret, the app): the next sync is due one period from now. */
export const editAddressBook = async (
  ctx: Context,
  operatorId: number,
  id: number,
  input: { schedule?: string | undefined; app_id?: string | undefined; secret?: string | undefined },
) => {
  checked(input);
  const row = (await findAddressBook(ctx.db, id)) ?? fail('E_2');
  const appId = input.app_id ?? row.app_id;
  if (input.app_id !== undefined && input.secret === undefined) throw invalidRequest('A new app_id needs its secret.');
  const schedule = input.schedule ?? row.schedule;
  const changed = await updateAddressBook(ctx.db, id, {
    app_id: appId,
    schedule,
    next_sync_at: nextSyncAt(schedule, ctx.now()),
    ...(input.secret === undefined
      ? {}
      : { secret_sealed: seal(ctx.keys.sealing, input.secret, secretName(row.vendor, appId)) }),
  });
  await eduAudit(ctx, operatorId, 'school.address_book.edit', `school:${row.school_id}`, `${row.vendor} ${schedule}`);
  return view(changed ?? row);
};

export const addressBooks = async (ctx: Context) => (await listAddressBooks(ctx.db)).map(view);

/** Reads a book from its vendor. */
const readBook = (ctx: Context, row: Row): Promise<Book> => {
  const secret = unseal(ctx.keys.sealing, row.secret_sealed, secretName(row.vendor, row.app_id));
  if (secret === undefined) throw invalidRequest("This address book's secret cannot be opened: set it again.");
  const now = () => ctx.now();
  return row.vendor === 'wecom'
    ? readWecomBook({ base: ctx.config.eduWecomApiUrl, appId: row.app_id, secret }, now)
    : readDingtalkBook({ base: ctx.config.eduDingtalkApiUrl, appId: row.app_id, secret }, now);
};

/** Why a vendor's book could not be read, in the operator's words (E_6: the outside failed). */
const unreadable = (vendor: string, error: unknown) => {
  if (error instanceof BookApiError || error instanceof ProviderUnreachableError) {
    return new ApiError('E_6', `The ${vendor} address book could not be read: ${error.message}`);
  }
  return error;
};

/**
 * One sync: the book read and stored as a roster job; with `apply` (the schedule) applied at once
 * unless held. The report is left on the book whatever happens.
 */
const sync = async (ctx: Context, operatorId: number | undefined, row: Row, apply: boolean): Promise<RosterJob> => {
  const started = Date.now();
  const at = ctx.now();
  const report = (fields: Record<string, unknown>) =>
    setBookReport(ctx.db, Number(row.id), JSON.stringify({ at, took_ms: Date.now() - started, ...fields }));
  try {
    const book = await readBook(ctx, row);
    const roster = bookRoster(book, {
      vendor: row.vendor as BookVendor,
      appId: row.app_id,
      key: ctx.keys.identifiers,
      now: at,
    });
    let job = await previewRoster(ctx, operatorId, roster, Number(row.school_id));
    if (apply && job.status === 'preview') job = await confirmRosterImport(ctx, operatorId, job.id, {});
    await report({ job_id: job.id, status: job.status, counts: job.counts, calls: book.calls, retried: book.retried });
    return job;
  } catch (error) {
    const failure = unreadable(row.vendor, error);
    await report({ error: failure instanceof Error ? failure.message : String(failure) });
    throw failure;
  }
};

/** The operator syncs a book now: a roster job to preview and confirm (nothing changes before). */
export const syncAddressBook = async (ctx: Context, operatorId: number, id: number) => {
  const row = (await findAddressBook(ctx.db, id)) ?? fail('E_2');
  return sync(ctx, operatorId, row, false);
};

/** The sweep's part: every book whose scheduled sync is due, each taken by one process. */
export const syncDueAddressBooks = async (ctx: Context, now: number) => {
  let synced = 0;
  let failed = 0;
  for (const row of await dueAddressBooks(ctx.db, now, SYNCS_PER_SWEEP)) {
    const due = Number(row.next_sync_at);
    if (!(await takeDueBook(ctx.db, Number(row.id), due, nextSyncAt(row.schedule, now) ?? now + DAY_MS))) continue;
    try {
      await sync(ctx, undefined, row, true);
      synced++;
    } catch (error) {
      failed++;
      ctx.logger.warn({ err: error, addressBook: Number(row.id) }, 'address book: scheduled sync failed');
    }
  }
  return { addressBooksSynced: synced, addressBooksFailed: failed };
};

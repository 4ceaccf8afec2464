/**
 * `users import <csv>`: one user a line. Columns (header row, any order): phone, email, username,
 * nickname, password, fullname. The file is UTF-8 (with or without a byte-order mark) or, when it is
 * not valid UTF-8, GB18030 (which includes GBK: what Excel in Chinese saves as "CSV"); the report says
 * which. Bad rows are reported by line and skipped, a clash names its column; good rows are imported
 * in batches, each in one statement. Imported e-mail addresses are not verified: no code proved them.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { checks, type RuleFailure } from '@edupass/protocol';
import type { Kysely } from 'kysely';
import type { Context } from '../context.ts';
import { canonicalEmail, invisibleInEmail, unreadableDomain } from '../email-address.ts';
import { newUser, passwordFields } from '../services/sign-in/sign-up.ts';
import { drawDefaultNickname } from '../store/account/default-nickname.ts';
import {
  findUserByEmail,
  findUserByNickname,
  findUserByPhone,
  findUserByUsername,
  insertUser,
  insertUsers,
  isUniqueViolation,
} from '../store/account/users.ts';
import type { Database, NewUser } from '../store/schema.ts';
import { inStoreTransaction } from '../store/transaction.ts';
import { progress } from './progress.ts';

const COLUMNS = ['phone', 'email', 'username', 'nickname', 'password', 'fullname'] as const;
type Column = (typeof COLUMNS)[number];
const BATCH = 500;

/** The text encodings an import reads: UTF-8, else GB18030 (a superset of GBK and GB2312). */
export type ImportEncoding = 'utf-8' | 'gb18030';

export interface ImportReport {
  imported: number;
  problems: { line: number; reason: string }[];
  encoding: ImportEncoding;
}

/** UTF-8 when every byte of the file decodes as UTF-8 (ASCII does), GB18030 otherwise. */
export const detectEncoding = async (file: string): Promise<ImportEncoding> => {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) utf8.decode(chunk as Buffer, { stream: true });
    utf8.decode();
    return 'utf-8';
  } catch {
    return 'gb18030';
  }
};

async function* decoded(file: string, encoding: ImportEncoding) {
  const decoder = new TextDecoder(encoding); // drops a UTF-8 byte-order mark
  for await (const chunk of createReadStream(file)) yield decoder.decode(chunk as Buffer, { stream: true });
  yield decoder.decode();
}

/** The file's lines as text, decoded from its encoding. */
const linesOf = (file: string, encoding: ImportEncoding) =>
  createInterface({ input: Readable.from(decoded(file, encoding)), crlfDelay: Number.POSITIVE_INFINITY });

/** Splits one CSV line (RFC 4180 quoting, no embedded newlines). */
export const splitCsvLine = (line: string): string[] => {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
};

const ruleFor: Partial<Record<Column, (value: unknown) => RuleFailure | null>> = {
  phone: checks.phone_number,
  email: checks.email,
  username: checks.username,
  nickname: checks.nickname,
  password: checks.password,
  fullname: checks.fullname,
};

const rowToUser = async (
  ctx: Context,
  row: Partial<Record<Column, string>>,
  pid: string,
): Promise<NewUser | string> => {
  const invisible = row.email ? invisibleInEmail(row.email) : undefined;
  if (invisible) return invisible;
  for (const column of COLUMNS) {
    const value = row[column];
    const failure = value ? ruleFor[column]?.(value) : null;
    if (failure) return failure.message;
  }
  // The address in its one spelling (email-address.ts), as the routes take it in.
  const email = row.email ? canonicalEmail(row.email) : undefined;
  if (row.email && !email) return unreadableDomain(row.email);
  if (!row.phone && !row.email && !row.username) return 'A row needs a phone, an e-mail or a username.';
  if (row.username && !row.password) return 'A username needs a password to sign in with.';
  return newUser(ctx, {
    pid,
    phone: row.phone || null,
    email: email ?? null,
    username: row.username || null,
    email_verified: row.email ? 0 : 1,
    phone_verified: row.phone ? 0 : 1,
    username_key: row.username?.toLowerCase() || null,
    nickname: row.nickname || null,
    fullname: row.fullname ?? '',
    ...(row.password ? await passwordFields(ctx, row.password) : {}),
  });
};

type Db = Kysely<Database>;

/** The unique columns of a user, each with how to find the account that holds a value. */
const UNIQUE_COLUMNS = [
  ['phone', (db: Db, user: NewUser) => user.phone && findUserByPhone(db, user.phone)],
  ['email', (db: Db, user: NewUser) => user.email && findUserByEmail(db, user.email)],
  ['username', (db: Db, user: NewUser) => user.username && findUserByUsername(db, user.username)],
  ['nickname', (db: Db, user: NewUser) => user.nickname && findUserByNickname(db, user.nickname)],
] as const;

/** Why a row did not go in: the column whose value another account (or an earlier row) already has. */
const clashReason = async (db: Db, user: NewUser): Promise<string> => {
  for (const [column, holder] of UNIQUE_COLUMNS) {
    if (await holder(db, user)) return `Column "${column}": this value is already taken by another account.`;
  }
  return 'The phone, e-mail, username or nickname is already taken.';
};

/** Inserts a batch in one statement; when a row clashes, the rows go in one by one to name its line. */
const insertBatch = async (ctx: Context, batch: { line: number; user: NewUser }[], report: ImportReport) => {
  try {
    await insertUsers(
      ctx.db,
      batch.map((b) => ({ ...b.user, nickname: b.user.nickname ?? drawDefaultNickname() })),
    );
    report.imported += batch.length;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // One by one (in one transaction: each insert and its count commit together, the batch at once), a
    // row without a nickname drawing again if its drawn default was what clashed.
    await inStoreTransaction(ctx.db, async (db) => {
      for (const { line, user } of batch) {
        if (await insertUser(db, user)) report.imported++;
        else report.problems.push({ line, reason: await clashReason(db, user) });
      }
    });
  }
};

export const importUsers = async (ctx: Context, file: string): Promise<ImportReport> => {
  const size = (await stat(file)).size;
  const bar = progress('importing', size);
  const encoding = await detectEncoding(file);
  const report: ImportReport = { imported: 0, problems: [], encoding };
  const pid = Object.keys(ctx.config.products)[0] ?? 'edupass';
  let header: Column[] | undefined;
  let lineNumber = 0;
  let bytes = 0;
  let batch: { line: number; user: NewUser }[] = [];
  for await (const line of linesOf(file, encoding)) {
    lineNumber++;
    bytes += Buffer.byteLength(line) + 1; // the progress bar's estimate: UTF-8 bytes, close enough
    if (line.trim() === '') continue;
    const cells = splitCsvLine(line);
    if (!header) {
      const unknown = cells.find((c) => !(COLUMNS as readonly string[]).includes(c.toLowerCase()));
      if (unknown !== undefined)
        throw new Error(`Unknown column "${unknown}" in the header. Columns: ${COLUMNS.join(', ')}.`);
      header = cells.map((c) => c.toLowerCase() as Column);
      continue;
    }
    if (cells.length !== header.length) {
      report.problems.push({ line: lineNumber, reason: `Expected ${header.length} cells, found ${cells.length}.` });
      continue;
    }
    const row = Object.fromEntries(header.map((column, i) => [column, cells[i]]));
    const user = await rowToUser(ctx, row, pid);
    if (typeof user === 'string') report.problems.push({ line: lineNumber, reason: user });
    else batch.push({ line: lineNumber, user });
    if (batch.length >= BATCH) {
      await insertBatch(ctx, batch, report);
      batch = [];
      bar.update(Math.min(bytes, size));
    }
  }
  if (batch.length > 0) await insertBatch(ctx, batch, report);
  bar.finish();
  return report;
};

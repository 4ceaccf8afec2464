/**
 * `users import <csv>`: one user a line. Columns (header row, any order): phone, email, username,
 * nickname, password, fullname. Bad rows are reported by line and skipped; good rows are imported in
 * batches, each in one statement.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { checks, type RuleFailure } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { newUser, passwordFields } from '../services/sign-in/sign-up.ts';
import { drawDefaultNickname } from '../store/account/default-nickname.ts';
import { insertUser, insertUsers, isUniqueViolation } from '../store/account/users.ts';
import type { NewUser } from '../store/schema.ts';
import { progress } from './progress.ts';

const COLUMNS = ['phone', 'email', 'username', 'nickname', 'password', 'fullname'] as const;
type Column = (typeof COLUMNS)[number];
const BATCH = 500;

export interface ImportReport {
  imported: number;
  problems: { line: number; reason: string }[];
}

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
  for (const column of COLUMNS) {
    const value = row[column];
    const failure = value ? ruleFor[column]?.(value) : null;
    if (failure) return failure.message;
  }
  if (!row.phone && !row.email && !row.username) return 'A row needs a phone, an e-mail or a username.';
  if (row.username && !row.password) return 'A username needs a password to sign in with.';
  return newUser(ctx, {
    pid,
    phone: row.phone || null,
    email: row.email?.toLowerCase() || null,
    username: row.username || null,
    username_key: row.username?.toLowerCase() || null,
    nickname: row.nickname || null,
    fullname: row.fullname ?? '',
    ...(row.password ? await passwordFields(ctx, row.password) : {}),
  });
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
    // One by one, a row without a nickname draws again if its drawn default was what clashed.
    for (const { line, user } of batch) {
      if (await insertUser(ctx.db, user)) report.imported++;
      else report.problems.push({ line, reason: 'The phone, e-mail, username or nickname is already taken.' });
    }
  }
};

export const importUsers = async (ctx: Context, file: string): Promise<ImportReport> => {
  const size = (await stat(file)).size;
  const bar = progress('importing', size);
  const report: ImportReport = { imported: 0, problems: [] };
  const pid = Object.keys(ctx.config.products)[0] ?? 'edupass';
  let header: Column[] | undefined;
  let lineNumber = 0;
  let bytes = 0;
  let batch: { line: number; user: NewUser }[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    lineNumber++;
    bytes += Buffer.byteLength(line) + 1;
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

/**
 * Roster imports as stored jobs: an upload is read (a OneRoster zip within the archive limits, or the
 * Chinese-header template), planned against the database and kept with its preview; nothing changes
 * until it is confirmed. Confirming plans again (the database may have moved since the preview) and
 * applies in one transaction. A job that removes more than `EDU_ROSTER_HOLD_PERCENT` of a school's
 * listed people is `held`: it applies only with `accept_removals`. The stored rows carry HMACs in
 * place of ids and are dropped once the job is applied; a job is deleted `EDU_ROSTER_JOB_HOURS` after
 * its upload, confirmed or not (services/platform/housekeeping.ts). Ids are hashed under the
 * keyring's `identifiers` key, which a JWT_SECRET rotation leaves as it is.
 */
import { HOUR_MS, type RosterJob } from '@edupass/protocol';
import type { Selectable } from 'kysely';
import type { Context } from '../../../context.ts';
import { ApiError, fail, invalidRequest } from '../../../errors.ts';
import { isUniqueViolation } from '../../../store/account/users.ts';
import { findRosterJob, insertRosterJob, markRosterJobApplied } from '../../../store/edu/roster/roster.ts';
import type { RosterJobsTable } from '../../../store/edu/roster/roster-schema.ts';
import { findSchool } from '../../../store/edu/school/schools.ts';
import { inTransaction } from '../../webhooks/events.ts';
import { logReads } from '../access-log.ts';
import { eduAudit } from '../audit.ts';
import { isZip } from '../bounded-zip.ts';
import { isWorkbook, readFirstSheet } from '../workbook.ts';
import { applyPlan } from './apply.ts';
import { openRosterZip } from './archive.ts';
import type { Roster } from './model.ts';
import { readOneRoster } from './oneroster.ts';
import { type Plan, planRoster } from './plan.ts';
import { isTemplate, readTemplateCsv, readTemplateSheet } from './template.ts';

/** Named items shown per kind and action, and refused rows shown. */
const ITEMS_SHOWN = 200;
const REFUSED_SHOWN = 500;

type Preview = Omit<RosterJob, 'id' | 'status' | 'school_id' | 'created_at' | 'applied_at'>;

/**
 * The roster an upload holds, ids hashed: a zip is an .xlsx workbook of the template or a OneRoster
 * set, anything else the template as a CSV; E_1 when it is none of them.
 */
export const readRoster = async (ctx: Context, bytes: Uint8Array): Promise<Roster> => {
  const key = ctx.keys.identifiers;
  if (bytes.length === 0) throw invalidRequest('The file is empty.');
  if (isZip(bytes)) {
    if (!isWorkbook(bytes, ctx.config)) return readOneRoster({ entries: openRosterZip(bytes, ctx.config), key });
    return readTemplateSheet(await readFirstSheet(bytes, ctx.config), key) ?? notARoster();
  }
  if (bytes.length > ctx.config.eduRosterEntryMaxBytes) {
    throw invalidRequest(`The file is larger than ${ctx.config.eduRosterEntryMaxBytes} bytes.`);
  }
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  const headGbk = new TextDecoder('gb18030').decode(bytes.subarray(0, 4096));
  if (isTemplate(head) || isTemplate(headGbk)) return readTemplateCsv(bytes, key);
  return notARoster();
};

const notARoster = (): never => {
  throw invalidRequest(
    'Send a OneRoster 1.2 CSV set as a zip, or the Chinese-header template as a CSV file or an .xlsx workbook (学校, 班级, 年级, 姓名, 角色, 学号/编号).',
  );
};

/** The preview's counts of each kind of change. */
const countsOf = (plan: Plan, blankLines: number): Preview['counts'] => ({
  schools_created: plan.newSchools.length,
  schools_matched: plan.linkSchools.length,
  schools_changed: plan.renameSchools.length,
  classes_created: plan.newClasses.length,
  classes_changed: plan.changeClasses.length,
  classes_removed: plan.removeClasses.length,
  pupils_created: plan.newPupils.length,
  teachers_matched: plan.linkTeachers.length,
  people_changed: plan.renameUsers.length + plan.restoreUsers.length,
  people_removed: plan.removeUsers.length,
  memberships_created: plan.newEnrollments.length,
  memberships_changed: plan.changeEnrollments.length,
  memberships_removed: plan.removeEnrollments.length,
  guardians_pending: plan.newInvites.filter((g) => g.phone !== null).length,
  guardians_to_confirm: plan.newInvites.filter((g) => g.phone === null).length,
  guardians_changed: plan.changeInvites.length,
  guardians_removed: plan.removeInvites.length,
  refused: plan.refused.length,
  blank_lines: blankLines,
});

const previewOf = (roster: Roster, plan: Plan, holdPercent: number): Preview => {
  const items: Preview['items'] = [];
  // A job stored before blank lines were listed has none.
  const blank = roster.blank ?? [];
  type Shown = { name: string; detail?: string; grade?: number; school_year?: string };
  const add = <T>(kind: string, action: string, list: T[], show: (item: T) => Shown) => {
    for (const item of list.slice(0, ITEMS_SHOWN)) {
      const { detail, ...shown } = show(item);
      items.push({ kind, action, ...shown, detail: detail ?? '' });
    }
  };
  add('school', 'create', plan.newSchools, (s) => ({ name: s.name }));
  add('school', 'match', plan.linkSchools, (s) => ({ name: s.name, detail: `school:${s.schoolId}` }));
  add('school', 'change', plan.renameSchools, (s) => ({ name: s.to, detail: s.from }));
  add('class', 'create', plan.newClasses, (c) => ({
    name: c.title,
    grade: c.grade,
    school_year: c.schoolYear,
    detail: `${c.grade} ${c.schoolYear}${c.gradeAssumed ? ' (no grade in the file)' : ''}`,
  }));
  add('class', 'change', plan.changeClasses, (c) => ({
    name: c.title,
    grade: c.grade,
    school_year: c.schoolYear,
    detail: `${c.from.title} ${c.from.grade} ${c.from.schoolYear}${c.from.archived ? ' (archived)' : ''}`,
  }));
  add('class', 'remove', plan.removeClasses, (c) => ({ name: c.title }));
  add('class', 'match', plan.linkClasses, (c) => ({
    name: c.title,
    detail: `class:${c.classId}`,
    grade: c.grade,
    school_year: c.schoolYear,
  }));
  add('pupil', 'create', plan.newPupils, (p) => ({ name: p.name }));
  add('teacher', 'match', plan.linkTeachers, (t) => ({ name: t.name, detail: `user:${t.userId}` }));
  add('person', 'match', plan.linkPeople, (p) => ({ name: p.name, detail: `user:${p.userId}` }));
  add('person', 'change', plan.renameUsers, (r) => ({ name: r.to, detail: r.from }));
  add('person', 'remove', plan.removeUsers, (r) => ({ name: r.name, detail: `user:${r.userId}` }));
  return {
    format: roster.format,
    encoding: roster.encoding,
    rows: roster.rows,
    modes: roster.modes,
    counts: countsOf(plan, blank.length),
    items,
    refused: plan.refused.slice(0, REFUSED_SHOWN).map((r) => ({
      file: r.file,
      line: r.line,
      column: r.column,
      reason: r.reason,
      ...(r.cause ? { cause: r.cause } : {}),
    })),
    blank_lines: blank.slice(0, REFUSED_SHOWN).map((b) => ({ file: b.file, line: b.line })),
    holds: plan.holds.map((h) => ({
      school_id: h.schoolId,
      school: h.name,
      removed: h.removed,
      listed: h.listed,
      percent: h.percent,
    })),
    hold_percent: holdPercent,
  };
};

const NO_GUARDIANS = { guardians_pending: 0, guardians_to_confirm: 0, guardians_changed: 0, guardians_removed: 0 };

/**
 * The share of a school's people a job may remove before it is held: EDU_ROSTER_HOLD_PERCENT for a
 * file an operator chose to upload, none for an address book (its syncs run on a schedule, unseen: a
 * pupil the book no longer lists waits for the admin's confirmation).
 */
export const holdPercentOf = (ctx: Pick<Context, 'config'>, format: string) =>
  format === 'wecom' || format === 'dingtalk' ? 0 : ctx.config.eduRosterHoldPercent;

const jobView = (row: Selectable<RosterJobsTable>): RosterJob => {
  const preview = JSON.parse(row.preview) as Preview;
  return {
    id: Number(row.id),
    status: row.status,
    school_id: row.school_id === null ? null : Number(row.school_id),
    created_at: Number(row.created_at),
    applied_at: row.applied_at === null ? null : Number(row.applied_at),
    ...preview,
    // A preview stored before blank lines, or guardians, were counted.
    counts: { ...NO_GUARDIANS, ...preview.counts, blank_lines: preview.counts.blank_lines ?? 0 },
    blank_lines: preview.blank_lines ?? [],
  };
};

/** Existing people an answer names (matched teachers, renamed and removed people): their reads are logged. */
const namedPeople = (plan: Plan) => [
  ...plan.linkTeachers.slice(0, ITEMS_SHOWN).map((t) => t.userId),
  ...plan.renameUsers.slice(0, ITEMS_SHOWN).map((r) => r.userId),
  ...plan.removeUsers.slice(0, ITEMS_SHOWN).map((r) => r.userId),
];

const logNamed = (ctx: Pick<Context, 'db' | 'now' | 'keys'>, operatorId: number | undefined, plan: Plan) =>
  operatorId === undefined
    ? Promise.resolve()
    : logReads(ctx, {
        readerId: operatorId,
        role: 'operator',
        subjectIds: namedPeople(plan),
        fields: ['fullname', 'school'],
        purpose: 'roster_preview',
      });

export interface RosterUpload {
  file_base64?: string;
  bytes?: Uint8Array;
  school_id?: number | undefined;
}

/** Reads and plans an upload and stores it as a job (`preview`, or `held`); nothing else changes. */
export const previewRosterImport = async (
  ctx: Context,
  operatorId: number | undefined,
  input: RosterUpload,
): Promise<RosterJob> => {
  const bytes = input.bytes ?? Buffer.from(input.file_base64 ?? '', 'base64');
  if (input.school_id !== undefined && !(await findSchool(ctx.db, input.school_id))) fail('E_2');
  return previewRoster(ctx, operatorId, await readRoster(ctx, bytes), input.school_id);
};

/** Plans a roster already read (a file, an address book) and stores it as a job; nothing else changes. */
export const previewRoster = async (
  ctx: Context,
  operatorId: number | undefined,
  roster: Roster,
  schoolId: number | undefined,
): Promise<RosterJob> => {
  const holdPercent = holdPercentOf(ctx, roster.format);
  const plan = await planRoster(ctx, roster, { schoolId, holdPercent });
  const preview = previewOf(roster, plan, holdPercent);
  const row = await inTransaction(ctx, async (tx) => {
    const job = await insertRosterJob(tx.db, {
      created_by: operatorId ?? null,
      school_id: schoolId ?? null,
      format: roster.format,
      status: plan.holds.length > 0 ? 'held' : 'preview',
      roster: JSON.stringify(roster),
      preview: JSON.stringify(preview),
      created_at: tx.now(),
      applied_at: null,
    });
    await logNamed(tx, operatorId, plan);
    if (operatorId !== undefined) {
      await eduAudit(
        tx,
        operatorId,
        'school.roster.preview',
        `roster:${job.id}`,
        `${roster.format} ${roster.rows} rows`,
      );
    }
    return job;
  });
  return jobView(row);
};

export const getRosterImport = async (ctx: Context, operatorId: number | undefined, jobId: number) => {
  const row = (await findRosterJob(ctx.db, jobId)) ?? fail('E_2');
  const job = jobView(row);
  if (operatorId !== undefined) {
    const ids = job.items.map((i) => /^user:(\d+)$/.exec(i.detail)?.[1]).filter((id): id is string => id !== undefined);
    await logReads(ctx, {
      readerId: operatorId,
      role: 'operator',
      subjectIds: ids.map(Number),
      fields: ['fullname', 'school'],
      purpose: 'roster_preview',
    });
  }
  return job;
};

/**
 * Applies a job; E_1 when it was applied already, or when it is held and `accept_removals` is not
 * given (the answer names the schools and shares).
 */
export const confirmRosterImport = async (
  ctx: Context,
  operatorId: number | undefined,
  jobId: number,
  options: { accept_removals?: boolean | undefined },
  progress?: (done: number, total: number) => void,
): Promise<RosterJob> => {
  const row = (await findRosterJob(ctx.db, jobId)) ?? fail('E_2');
  if (row.status === 'applied') throw invalidRequest('This roster import was applied already.');
  // Past EDU_ROSTER_JOB_HOURS the job is as good as swept (the sweep runs hourly).
  if (Number(row.created_at) < ctx.now() - ctx.config.eduRosterJobHours * HOUR_MS) fail('E_2');
  const roster = JSON.parse(row.roster) as Roster;
  const holdPercent = holdPercentOf(ctx, row.format);
  try {
    // Planned inside the transaction that applies it, so the plan and the hold see what is there now,
    // not what another import confirmed meanwhile.
    await inTransaction(ctx, async (tx) => {
      const plan = await planRoster(tx, roster, {
        schoolId: row.school_id === null ? undefined : Number(row.school_id),
        holdPercent,
      });
      if (plan.holds.length > 0 && options.accept_removals !== true) {
        const held = plan.holds.map((h) => `${h.name}: ${h.removed} of ${h.listed} (${h.percent} %)`).join('; ');
        throw invalidRequest(
          `This import removes more than ${holdPercent} % of a school's people (${held}). Confirm with accept_removals to apply it.`,
        );
      }
      const preview = previewOf(roster, plan, holdPercent);
      if (!(await markRosterJobApplied(tx.db, jobId, JSON.stringify(preview), tx.now()))) {
        throw invalidRequest('This roster import was applied already.');
      }
      const applied = await applyPlan(tx, plan, operatorId ?? 0, progress);
      await logNamed(tx, operatorId, plan);
      await eduAudit(
        tx,
        operatorId ?? 0,
        'school.roster.import',
        `roster:${jobId}`,
        `${applied.schools} schools, ${applied.classes} classes, ${applied.pupils} pupils, ${applied.teachers} teachers, ${applied.memberships} memberships created; ${applied.removed} removed${plan.holds.length > 0 ? ' (held removals accepted)' : ''}`,
      );
    });
  } catch (error) {
    // Another import of the same schools, confirmed at the same moment, made them first: nothing of
    // this one was kept, and it can be confirmed again (it then finds what the other made).
    if (isUniqueViolation(error)) {
      throw new ApiError('E_10', 'Another roster import changed these schools at the same moment. Confirm again.');
    }
    throw error;
  }
  return jobView((await findRosterJob(ctx.db, jobId)) ?? fail('E_2'));
};

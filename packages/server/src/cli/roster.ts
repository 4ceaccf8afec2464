/**
 * `edupass schools roster import <file> [--school <id>] [--preview | --confirm <job> [--accept-removals]]`:
 * a roster file (OneRoster 1.2 CSV zip, or the Chinese-header template as CSV or .xlsx) previewed as a stored job,
 * then applied by its number, as the console does (services/edu/roster/jobs.ts).
 */
import { readFileSync } from 'node:fs';
import { ROSTER_REFUSALS, type RosterJob, type RosterRefusalReason, rosterCauseText } from '@edupass/protocol';
import type { Context } from '../context.ts';
import { confirmRosterImport, previewRosterImport } from '../services/edu/roster/jobs.ts';
import { progress } from './progress.ts';

export const ROSTER_USAGE = `  schools roster import <file> [--school <id>] [--preview]
                                           read a roster (OneRoster 1.2 CSV zip, or the Chinese-header
                                           template, CSV or .xlsx) and store it as an import job: prints what it
                                           would create, change and remove, and the rows it refuses
  schools roster import --confirm <job> [--accept-removals]
                                           apply a previewed job (a held one needs --accept-removals)`;

export const ROSTER_OPTIONS = {
  school: { type: 'string' },
  preview: { type: 'boolean' },
  confirm: { type: 'string' },
  'accept-removals': { type: 'boolean' },
} as const;

export interface RosterValues {
  school?: string | undefined;
  preview?: boolean | undefined;
  confirm?: string | undefined;
  'accept-removals'?: boolean | undefined;
}

const positive = (value: string, option: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${option} must be a number.`);
  return n;
};

/** The job as lines: status, counts, holds, and the first refused rows. */
export const describeJob = (job: RosterJob) => {
  const c = job.counts;
  const lines = [
    `Roster import ${job.id}: ${job.status} (${job.format}, ${job.encoding}${job.encoding === 'gb18030' ? ': read as GBK/GB18030' : ''}, ${job.rows} rows)`,
    `  schools   ${c.schools_created} new, ${c.schools_matched} matched, ${c.schools_changed} renamed`,
    `  classes   ${c.classes_created} new, ${c.classes_changed} changed, ${c.classes_removed} archived`,
    `  people    ${c.pupils_created} pupils new, ${c.teachers_matched} teachers matched, ${c.people_changed} changed, ${c.people_removed} removed`,
    `  members   ${c.memberships_created} new, ${c.memberships_changed} changed, ${c.memberships_removed} ended`,
    `  refused   ${c.refused} rows`,
  ];
  for (const r of job.refused.slice(0, 20)) {
    const why = ROSTER_REFUSALS[r.reason as RosterRefusalReason] ?? r.reason;
    lines.push(`    ${r.file}:${r.line} ${r.column}: ${why}${r.cause ? ` ${rosterCauseText(r.cause)}` : ''}`);
  }
  if (job.refused.length > 20) lines.push(`    … ${c.refused - 20} more`);
  if (c.blank_lines > 0) {
    const shown = job.blank_lines.slice(0, 20).map((b) => `${b.file}:${b.line}`);
    lines.push(`  skipped   ${c.blank_lines} blank lines: ${shown.join(', ')}${c.blank_lines > 20 ? ' …' : ''}`);
  }
  for (const h of job.holds) {
    lines.push(
      `  HELD: removes ${h.removed} of ${h.listed} people of ${h.school} (${h.percent} % > ${job.hold_percent} %)`,
    );
  }
  if (job.status !== 'applied') {
    lines.push(
      `Apply it with: edupass schools roster import --confirm ${job.id}${job.holds.length > 0 ? ' --accept-removals' : ''}`,
    );
  }
  return lines.join('\n');
};

/** The lines to print, or undefined when the arguments are not a roster command. */
export const runRoster = async (ctx: Context, args: string[], values: RosterValues): Promise<string | undefined> => {
  const [sub, verb, file] = args;
  if (sub !== 'roster' || verb !== 'import') return undefined;
  if (values.confirm !== undefined) {
    const jobId = positive(values.confirm, '--confirm');
    const bar = progress('Importing', 0);
    let shown: ReturnType<typeof progress> | undefined;
    const job = await confirmRosterImport(
      ctx,
      undefined,
      jobId,
      { accept_removals: values['accept-removals'] === true },
      (done, total) => {
        shown ??= total > 0 ? progress('Importing', total) : bar;
        shown.update(done);
      },
    );
    shown?.finish();
    return describeJob(job);
  }
  if (file === undefined) throw new Error('Name the roster file (a .zip or a .csv).');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new Error(`Cannot read ${file}.`);
  }
  process.stderr.write(`Reading ${file} (${bytes.length} bytes)…\n`);
  const job = await previewRosterImport(ctx, undefined, {
    bytes,
    school_id: values.school === undefined ? undefined : positive(values.school, '--school'),
  });
  return describeJob(job);
};

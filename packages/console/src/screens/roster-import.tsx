/**
 * A roster import on the Schools screen: upload a OneRoster 1.2 CSV zip or the Chinese-header
 * template (CSV or .xlsx), see what it would create, change and remove (and the rows refused, by file,
 * line and column, with the refused row they depend on; and the blank lines skipped), then confirm. A file that removes more than the set share of a school is held: it applies
 * only once the removals are accepted with the check box. Its words in both languages are kept here.
 */

import { ROSTER_REFUSALS, type RosterRefusalReason, rosterCauseText } from '@edupass/protocol';
import { base64Of } from '@edupass/ui-kit/file-base64.ts';
import { FileChooser } from '@edupass/ui-kit/file-chooser.tsx';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { type FormEvent, useState } from 'react';
import { confirmRosterImport, previewRosterImport, type RosterImport } from '../api/edu-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { Card, DataTable } from '../ui/table.tsx';
import { rosterItemWords } from './roster-items.ts';

const WORDS = {
  en: {
    title: 'Import a roster',
    lead: 'A OneRoster 1.2 CSV set (zip) or the Chinese-header template (CSV or .xlsx: 学校, 班级, 年级, 学年, 姓名, 角色, 学号/编号). Nothing changes until you confirm the preview.',
    file: 'Roster file (.zip, .csv or .xlsx)',
    chooseFile: 'Choose a file',
    noFile: 'No file chosen yet',
    school: 'For school (id, optional: a one-school file is matched to it)',
    upload: 'Upload and preview',
    preview: 'Import {id}: {status}',
    gbk: 'The file was read as GBK/GB18030 (saved by Chinese Excel).',
    what: 'What',
    count: 'Count',
    held: 'Held: it removes {removed} of {listed} people of {school} ({percent} %, more than {limit} %).',
    accept: 'I accept these removals',
    confirm: 'Confirm the import',
    applied: 'Import {id} applied.',
    refused: 'Refused rows',
    file_: 'File',
    line: 'Line',
    column: 'Column',
    reason: 'Reason',
    items: 'Named changes',
    kind: 'Kind',
    action: 'Action',
    name: 'Name',
    none: 'None.',
    blank: 'Blank lines skipped: {count} ({lines}).',
  },
  'zh-CN': {
    title: '导入名册',
    lead: 'OneRoster 1.2 CSV 文件包（zip），或中文表头模板（CSV 或 .xlsx：学校, 班级, 年级, 学年, 姓名, 角色, 学号/编号）。确认预览之前不会做任何更改。',
    file: '名册文件（.zip、.csv 或 .xlsx）',
    chooseFile: '选择文件',
    noFile: '还没有选择文件',
    school: '所属学校（编号，可选：只含一所学校的文件将对应到它）',
    upload: '上传并预览',
    preview: '导入 {id}：{status}',
    gbk: '文件按 GBK/GB18030 读取（中文 Excel 保存）。',
    what: '内容',
    count: '数量',
    held: '已暂停：将移除 {school} 的 {listed} 人中的 {removed} 人（{percent}%，超过 {limit}%）。',
    accept: '我确认这些移除',
    confirm: '确认导入',
    applied: '导入 {id} 已完成。',
    refused: '未导入的行',
    file_: '文件',
    line: '行',
    column: '列',
    reason: '原因',
    items: '具体变更',
    kind: '类别',
    action: '操作',
    name: '名称',
    none: '无。',
    blank: '已跳过空行：{count} 行（{lines}）。',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

const COUNT_WORDS: Record<ConsoleLocale, Record<string, string>> = {
  en: {
    schools_created: 'Schools created',
    schools_matched: 'Schools matched',
    schools_changed: 'Schools renamed',
    classes_created: 'Classes created',
    classes_changed: 'Classes changed',
    classes_removed: 'Classes archived',
    pupils_created: 'Pupil accounts created',
    teachers_matched: 'Teachers matched to their accounts',
    people_changed: 'People changed',
    people_removed: 'People removed',
    memberships_created: 'Class memberships added',
    memberships_changed: 'Class memberships changed',
    memberships_removed: 'Class memberships ended',
    guardians_pending: 'Guardians to confirm by SMS',
    guardians_to_confirm: 'Guardians to confirm with the school’s code (no phone)',
    guardians_changed: 'Guardians changed',
    guardians_removed: 'Guardians no longer listed',
    refused: 'Rows refused',
    blank_lines: 'Blank lines skipped',
  },
  'zh-CN': {
    schools_created: '新建学校',
    schools_matched: '匹配已有学校',
    schools_changed: '学校改名',
    classes_created: '新建班级',
    classes_changed: '班级变更',
    classes_removed: '归档班级',
    pupils_created: '新建学生账号',
    teachers_matched: '匹配到账号的教师',
    people_changed: '人员变更',
    people_removed: '移除人员',
    memberships_created: '加入班级',
    memberships_changed: '班级成员变更',
    memberships_removed: '退出班级',
    guardians_pending: '待短信确认的家长',
    guardians_to_confirm: '待用学校关联码确认的家长（无手机号）',
    guardians_changed: '家长变更',
    guardians_removed: '不再登记的家长',
    refused: '未导入的行',
    blank_lines: '跳过的空行',
  },
};

/** Why a row is left out: the protocol's English sentences, and the same in Chinese. */
const REFUSAL_WORDS: Record<ConsoleLocale, Record<RosterRefusalReason, string>> = {
  en: ROSTER_REFUSALS,
  'zh-CN': {
    missing_value: '必填的值为空。',
    duplicate_id: '这个编号已被文件中前面的一行使用。',
    unknown_org: '它所写的学校既不在文件中，也未曾导入。',
    unknown_class: '它所写的班级既不在文件中，也未曾导入。',
    unknown_user: '它所写的人员既不在文件中，也未曾导入。',
    role_not_imported: '只导入学生和教师，这个角色不导入。',
    grade: '无法识别的年级（可用 KG、1 至 13、PS、UG，或 一年级 至 高三）。',
    name: '姓名为空，或不是人名。',
    no_class: '学生必须属于文件中的一个班级：没有选课记录写明班级。',
    teacher_without_account: '没有 EduPass 账号使用这位教师的手机号或邮箱：请教师先注册。',
    role_mismatch: '角色与账号不符：学生账号不能作为教师，反之亦然。',
    status: '状态不是 active 或 tobedeleted。',
    org_refused: '它所写的学校在文件中，但那一行未导入。',
    class_refused: '它所写的班级在文件中，但那一行未导入。',
    user_refused: '它所写的人员在文件中，但那一行未导入。',
    class_name_taken: '本学年学校里已有同名的班级。',
  },
};

type Cause = NonNullable<RosterImport['refused'][number]['cause']>;

/** The refused row a row depends on, in words: the protocol's English, or the same in Chinese. */
const CAUSE_WORDS: Record<ConsoleLocale, (cause: Cause, why: string) => string> = {
  en: (cause) => rosterCauseText(cause),
  'zh-CN': (cause, why) =>
    `${{ school: '学校', class: '班级', person: '人员' }[cause.kind] ?? cause.kind}${cause.name ? ` ${cause.name}` : ''}（${cause.file} 第 ${cause.line} 行）未导入：${why}`,
};

const useScreenWords = screenWords(WORDS);
const useWords = () => {
  const { locale } = useConsoleText();
  const reasons = REFUSAL_WORDS[locale];
  const reason = (code: string) => reasons[code as RosterRefusalReason] ?? code;
  const refusal = (r: RosterImport['refused'][number]) =>
    r.cause ? `${reason(r.reason)} ${CAUSE_WORDS[locale](r.cause, reason(r.cause.reason))}` : reason(r.reason);
  return { w: useScreenWords(), counts: COUNT_WORDS[locale], refusal, items: rosterItemWords(locale) };
};

/** A roster import's preview (a file's, an address book's), its holds, and its confirmation. */
export const JobView = ({ job, done }: { job: RosterImport; done: (job: RosterImport) => void }) => {
  const { w, counts, refusal, items } = useWords();
  const action = useAction(useConsoleText().errorText);
  const [accept, setAccept] = useState(false);
  const confirm = async () => {
    let applied: RosterImport | undefined;
    const ok = await action.run(async () => {
      applied = await confirmRosterImport(job.id, accept);
    });
    if (ok && applied) done(applied);
  };
  const countRows = Object.entries(job.counts).map(([key, n]) => ({ key, n }));
  return (
    <div id={`roster-job-${job.id}`}>
      <h3>{w('preview', { id: job.id, status: items.status(job.status) })}</h3>
      {job.encoding === 'gb18030' ? <p>{w('gbk')}</p> : null}
      <DataTable
        rows={countRows}
        rowKey={(row) => row.key}
        caption={w('preview', { id: job.id, status: items.status(job.status) })}
        columns={[
          { head: w('what'), rowHeader: true, cell: (row) => counts[row.key] ?? row.key },
          { head: w('count'), cell: (row) => row.n },
        ]}
      />
      {job.holds.map((h) => (
        <p key={h.school_id} role="alert">
          {w('held', {
            removed: h.removed,
            listed: h.listed,
            school: h.school,
            percent: h.percent,
            limit: job.hold_percent,
          })}
        </p>
      ))}
      {job.status === 'applied' ? null : (
        <div className="console-form">
          {job.holds.length > 0 ? (
            <label className="console-check">
              <input type="checkbox" checked={accept} onChange={(e) => setAccept(e.target.checked)} /> {w('accept')}
            </label>
          ) : null}
          <FormError message={action.error} />
          <button
            type="button"
            className="console-button"
            disabled={action.busy || (job.holds.length > 0 && !accept)}
            onClick={confirm}
          >
            {w('confirm')}
          </button>
        </div>
      )}
      <h3>{w('refused')}</h3>
      <DataTable
        rows={job.refused.slice(0, 100)}
        rowKey={(r) => `${r.file}:${r.line}:${r.column}`}
        empty={w('none')}
        caption={w('refused')}
        columns={[
          { head: w('file_'), cell: (r) => r.file },
          { head: w('line'), rowHeader: true, cell: (r) => r.line },
          { head: w('column'), cell: (r) => r.column },
          { head: w('reason'), cell: refusal },
        ]}
      />
      {job.blank_lines.length > 0 ? (
        <p>
          {w('blank', {
            count: job.counts.blank_lines,
            lines: job.blank_lines.map((b) => `${b.file} ${b.line}`).join(', '),
          })}
        </p>
      ) : null}
      <h3>{w('items')}</h3>
      <DataTable
        rows={job.items.slice(0, 100)}
        rowKey={(item) => `${item.kind}:${item.action}:${item.name}:${item.detail}`}
        empty={w('none')}
        caption={w('items')}
        wrap
        columns={[
          { head: w('kind'), cell: (item) => items.kind(item.kind) },
          { head: w('action'), cell: (item) => items.action(item.action) },
          { head: w('name'), rowHeader: true, cell: (item) => items.name(item) },
        ]}
      />
    </div>
  );
};

export const RosterImportCard = ({ changed }: { changed: () => void }) => {
  const { w } = useWords();
  const action = useAction(useConsoleText().errorText);
  const [file, setFile] = useState<File | null>(null);
  const [school, setSchool] = useState('');
  const [job, setJob] = useState<RosterImport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setNotice(null);
    await action.run(async () => {
      const schoolId = school.trim() === '' ? undefined : Number(school);
      setJob(await previewRosterImport(await base64Of(file), schoolId));
    });
  };
  return (
    <Card id="roster-import" title={w('title')}>
      <p className="console-lead">{w('lead')}</p>
      <form className="console-form" onSubmit={submit}>
        <label htmlFor="roster-file">{w('file')}</label>
        {/* In the console's words, not the browser's "Choose File" (ui-kit file-chooser.tsx). */}
        <FileChooser
          id="roster-file"
          accept=".zip,.csv,.xlsx,application/zip,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          required
          file={file}
          onFile={setFile}
          chooseLabel={w('chooseFile')}
          noFileLabel={w('noFile')}
          buttonClassName="console-button"
          nameClassName="console-muted"
        />
        <label htmlFor="roster-school">{w('school')}</label>
        <input
          id="roster-school"
          type="number"
          min={1}
          inputMode="numeric"
          value={school}
          onChange={(e) => setSchool(e.target.value)}
        />
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('upload')}
        </button>
      </form>
      <Notice message={notice} />
      {job ? (
        <JobView
          key={`${job.id}-${job.status}`}
          job={job}
          done={(applied) => {
            setJob(applied);
            setNotice(w('applied', { id: applied.id }));
            changed();
          }}
        />
      ) : null}
    </Card>
  );
};

/**
 * Schools' home-school address books on the Schools screen (WeCom 家校沟通, DingTalk K12): add a
 * school's app and secret (sealed, never shown again), choose how often it is synced (the operator's
 * choice: off, hourly, daily), see the last sync's report, and sync now — a roster import previewed
 * and confirmed as an uploaded file is (roster-import.tsx's JobView). Its words in both languages.
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { type FormEvent, useState } from 'react';
import {
  type AddressBook,
  addAddressBook,
  listAddressBooks,
  type RosterImport,
  setAddressBookSchedule,
  syncAddressBook,
} from '../api/edu-api.ts';
import { screenWords, useConsoleText } from '../i18n/i18n.ts';
import { Card, DataTable } from '../ui/table.tsx';
import { JobView } from './roster-import.tsx';

const WORDS = {
  en: {
    title: 'Home-school address books',
    lead: 'A school’s WeCom (家校沟通) or DingTalk (家校通讯录) address book as its roster: classes, pupils, teachers and guardians (who each confirm by SMS). A sync is previewed like an uploaded file; a scheduled one is applied unless it removes someone, which waits for you here.',
    school: 'School id',
    vendor: 'Vendor',
    wecom: 'WeCom',
    dingtalk: 'DingTalk',
    appId: 'App id (WeCom corpid, DingTalk AppKey)',
    secret: 'Secret (kept sealed, never shown again)',
    schedule: 'Sync',
    off: 'Only when I sync',
    hourly: 'Every hour',
    daily: 'Every day',
    add: 'Add the address book',
    added: 'Address book added.',
    last: 'Last sync',
    never: 'Not synced yet',
    failed: 'Failed: {error}',
    report: '{status}, import {job} ({took} ms, {calls} calls)',
    sync: 'Sync now',
    none: 'No address book yet.',
    saved: 'Schedule saved.',
  },
  'zh-CN': {
    title: '家校通讯录',
    lead: '把学校的企业微信（家校沟通）或钉钉（家校通讯录）作为名册：班级、学生、教师和家长（家长各自通过短信确认）。同步会像上传的文件一样先预览；定时同步会自动应用，但移除人员的同步会在这里等待你确认。',
    school: '学校 ID',
    vendor: '平台',
    wecom: '企业微信',
    dingtalk: '钉钉',
    appId: '应用 ID（企业微信 corpid，钉钉 AppKey）',
    secret: '密钥（加密保存，不再显示）',
    schedule: '同步',
    off: '仅手动同步',
    hourly: '每小时',
    daily: '每天',
    add: '添加通讯录',
    added: '已添加通讯录。',
    last: '上次同步',
    never: '尚未同步',
    failed: '失败：{error}',
    report: '{status}，导入 {job}（{took} 毫秒，{calls} 次调用）',
    sync: '立即同步',
    none: '还没有通讯录。',
    saved: '已保存同步设置。',
  },
};

const useWords = screenWords(WORDS);
const SCHEDULES = ['off', 'hourly', 'daily'] as const;

const lastSync = (book: AddressBook, w: ReturnType<typeof useWords>) => {
  const report = book.last_report as Record<string, unknown> | null;
  if (!report) return w('never');
  if (typeof report.error === 'string') return w('failed', { error: report.error });
  return w('report', {
    status: String(report.status),
    job: String(report.job_id),
    took: String(report.took_ms),
    calls: String(report.calls),
  });
};

const AddForm = ({ added }: { added: () => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState({ school: '', vendor: 'wecom', app_id: '', secret: '', schedule: 'daily' });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { school, ...book } = form;
    if (await action.run(() => addAddressBook(Number(school), book))) {
      setForm({ ...form, app_id: '', secret: '' });
      added();
    }
  };
  return (
    <form className="console-form" onSubmit={submit}>
      <label htmlFor="book-school">{w('school')}</label>
      <input
        id="book-school"
        type="number"
        min={1}
        required
        value={form.school}
        onChange={(e) => set('school')(e.target.value)}
      />
      <label htmlFor="book-vendor">{w('vendor')}</label>
      <select id="book-vendor" value={form.vendor} onChange={(e) => set('vendor')(e.target.value)}>
        <option value="wecom">{w('wecom')}</option>
        <option value="dingtalk">{w('dingtalk')}</option>
      </select>
      <label htmlFor="book-app">{w('appId')}</label>
      <input id="book-app" required value={form.app_id} onChange={(e) => set('app_id')(e.target.value)} />
      <label htmlFor="book-secret">{w('secret')}</label>
      <input
        id="book-secret"
        type="password"
        autoComplete="off"
        required
        value={form.secret}
        onChange={(e) => set('secret')(e.target.value)}
      />
      <label htmlFor="book-schedule">{w('schedule')}</label>
      <select id="book-schedule" value={form.schedule} onChange={(e) => set('schedule')(e.target.value)}>
        {SCHEDULES.map((s) => (
          <option key={s} value={s}>
            {w(s)}
          </option>
        ))}
      </select>
      <FormError message={action.error} />
      <button type="submit" className="console-button" disabled={action.busy}>
        {w('add')}
      </button>
    </form>
  );
};

export const AddressBooksCard = ({ changed }: { changed: () => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const books = useLoad(listAddressBooks);
  const [job, setJob] = useState<RosterImport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const schedule = (book: AddressBook, value: string) =>
    void action.run(async () => {
      await setAddressBookSchedule(book.id, value);
      setNotice(w('saved'));
      books.reload();
    });
  const sync = (book: AddressBook) =>
    void action.run(async () => {
      setNotice(null);
      setJob(await syncAddressBook(book.id));
      books.reload();
    });
  return (
    <Card id="address-books" title={w('title')}>
      <p className="console-lead">{w('lead')}</p>
      <DataTable
        caption={w('title')}
        wrap
        rows={books.data ?? []}
        rowKey={(book) => book.id}
        empty={w('none')}
        columns={[
          {
            head: w('school'),
            rowHeader: true,
            cell: (book) => `${book.school_id} · ${w(book.vendor === 'wecom' ? 'wecom' : 'dingtalk')}`,
          },
          { head: w('appId'), cell: (book) => book.app_id },
          {
            head: w('schedule'),
            cell: (book) => (
              <select
                aria-label={`${w('schedule')} ${book.app_id}`}
                value={book.schedule}
                onChange={(e) => schedule(book, e.target.value)}
              >
                {SCHEDULES.map((s) => (
                  <option key={s} value={s}>
                    {w(s)}
                  </option>
                ))}
              </select>
            ),
          },
          { head: w('last'), cell: (book) => lastSync(book, w) },
          {
            head: w('sync'),
            cell: (book) => (
              <button type="button" className="console-button" disabled={action.busy} onClick={() => sync(book)}>
                {w('sync')}
              </button>
            ),
          },
        ]}
      />
      <FormError message={action.error} />
      <Notice message={notice} />
      {job ? (
        <JobView
          key={`${job.id}-${job.status}`}
          job={job}
          done={(applied) => {
            setJob(applied);
            books.reload();
            changed();
          }}
        />
      ) : null}
      <AddForm
        added={() => {
          setNotice(w('added'));
          books.reload();
        }}
      />
    </Card>
  );
};

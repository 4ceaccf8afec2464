/**
 * Schools of the education layer: every school with its daily quota of pupil batches, a new school
 * (optionally with its first school admin, by user id), and a school's quota changed. Its words in
 * both of the console's languages are kept here, with the screen.
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { usePages } from '@edupass/ui-kit/use-pages.ts';
import { type FormEvent, useState } from 'react';
import { addSchool, listSchools, type School, setSchoolQuota } from '../api/edu-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { PageEnd } from '../ui/status.tsx';
import { Card, DataTable } from '../ui/table.tsx';
import { AddressBooksCard } from './address-books.tsx';
import { ConsentTextCard, SchoolAgreementCard, useAgreementText } from './consent-settings.tsx';
import { RosterImportCard } from './roster-import.tsx';

const WORDS = {
  en: {
    title: 'Schools',
    lead: 'Schools whose teachers create pupil accounts. A batch is one bulk creation of up to 100 pupils; the quota counts batches a day for the whole school.',
    name: 'School',
    id: 'Id',
    quota: 'Pupil batches a day',
    created: 'Added',
    agreement: 'Agreement',
    change: 'Change the quota',
    quotaFor: 'Pupil batches a day for {name}',
    save: 'Save',
    saveFor: 'Save the quota of {name}',
    saved: '{name}: {count} batches a day.',
    none: 'No school yet.',
    add: 'Add a school',
    newName: 'Name of the school',
    admin: 'User id of its first school admin (optional; find it under Users)',
    newQuota: 'Pupil batches a day (optional; the configured default otherwise)',
    submit: 'Add the school',
    withoutAgreement:
      "Until the school's agreement is recorded (School agreement, below), every pupil under 14 its teachers create waits for a parent's consent, and an account no parent agrees to within EDU_CONSENT_PENDING_DAYS (30 days unless configured) is deleted.",
    addedWithoutAgreement:
      "Added {name}. Record its school agreement below, or its teachers' pupils under 14 will wait for their parents' consent.",
    more: 'Load more',
    end: '{count} schools, all shown.',
  },
  'zh-CN': {
    title: '学校',
    lead: '由教师创建学生账号的学校。一批是一次批量创建（最多 100 名学生）；配额是全校每天可创建的批数。',
    name: '学校',
    id: '编号',
    quota: '每天可创建的学生批数',
    created: '添加时间',
    agreement: '学校协议',
    change: '修改配额',
    quotaFor: '{name} 每天可创建的学生批数',
    save: '保存',
    saveFor: '保存 {name} 的配额',
    saved: '{name}：每天 {count} 批。',
    none: '还没有学校。',
    add: '添加学校',
    newName: '学校名称',
    admin: '第一位学校管理员的用户编号（可选；可在“用户”中查找）',
    newQuota: '每天可创建的学生批数（可选；不填则用默认配置）',
    submit: '添加学校',
    withoutAgreement:
      '登记学校协议（见下方“学校协议”）之前，这所学校的教师创建的不满 14 岁学生账号都要等家长同意；在 EDU_CONSENT_PENDING_DAYS（默认 30 天）内没有家长同意的账号会被删除。',
    addedWithoutAgreement: '已添加 {name}。请在下方登记它的学校协议，否则教师创建的不满 14 岁学生账号要等家长同意。',
    more: '加载更多',
    end: '共 {count} 所学校，已全部显示。',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

const useWords = screenWords(WORDS);

/** Schools a page of the table holds. */
const PAGE = 50;

/** A whole number typed in a field, or undefined when the field is blank. */
const optionalNumber = (text: string) => (text.trim() === '' ? undefined : Number(text));

const AddSchoolForm = ({ added }: { added: (name: string) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [form, setForm] = useState({ name: '', admin: '', quota: '' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let name = '';
    const ok = await action.run(async () => {
      const admin = optionalNumber(form.admin);
      const quota = optionalNumber(form.quota);
      const school = await addSchool({
        name: form.name,
        ...(admin === undefined ? {} : { admin_user_id: admin }),
        ...(quota === undefined ? {} : { daily_batches: quota }),
      });
      name = school.name;
    });
    if (ok) {
      setForm({ name: '', admin: '', quota: '' });
      added(name);
    }
  };
  const field = (key: 'name' | 'admin' | 'quota', label: Word, numeric: boolean) => (
    <>
      <label htmlFor={`school-${key}`}>{w(label)}</label>
      <input
        id={`school-${key}`}
        value={form[key]}
        required={!numeric}
        {...(numeric ? { type: 'number', min: key === 'admin' ? 1 : 0, inputMode: 'numeric' as const } : {})}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </>
  );
  return (
    <Card id="school-add" title={w('add')}>
      <form className="console-form" onSubmit={submit}>
        {field('name', 'newName', false)}
        {field('admin', 'admin', true)}
        {field('quota', 'newQuota', true)}
        <p className="console-muted">{w('withoutAgreement')}</p>
        <FormError message={action.error} />
        <button type="submit" className="console-button" disabled={action.busy}>
          {w('submit')}
        </button>
      </form>
    </Card>
  );
};

/** One school's quota, changed in place. */
const QuotaForm = ({ school, saved }: { school: School; saved: (message: string) => void }) => {
  const w = useWords();
  const action = useAction(useConsoleText().errorText);
  const [quota, setQuota] = useState(String(school.daily_batches));
  const id = `school-quota-${school.id}`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const count = Number(quota);
    if (await action.run(() => setSchoolQuota(school.id, count))) saved(w('saved', { name: school.name, count }));
  };
  return (
    <form className="console-inline-form" onSubmit={submit}>
      <label htmlFor={id} className="console-visually-hidden">
        {w('quotaFor', { name: school.name })}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        max={10_000}
        inputMode="numeric"
        required
        value={quota}
        onChange={(e) => setQuota(e.target.value)}
      />
      <button
        type="submit"
        className="console-button console-button-quiet"
        disabled={action.busy}
        aria-label={w('saveFor', { name: school.name })}
      >
        {w('save')}
      </button>
      <FormError message={action.error} />
    </form>
  );
};

export const SchoolsScreen = () => {
  const w = useWords();
  const { time } = useConsoleText();
  const schools = usePages(async (last: School | undefined) => {
    const items = await listSchools(last?.id, PAGE);
    return { items, more: items.length === PAGE };
  });
  const agreementText = useAgreementText();
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => {
    setNotice(message);
    schools.reload();
  };
  return (
    <>
      <h1>{w('title')}</h1>
      <p className="console-lead">{w('lead')}</p>
      <Notice message={notice} />
      {schools.items.length > 0 ? (
        <DataTable
          rows={schools.items}
          rowKey={(school) => school.id}
          caption={w('title')}
          wrap
          columns={[
            { head: w('name'), rowHeader: true, cell: (school) => school.name },
            { head: w('id'), cell: (school) => school.id },
            { head: w('quota'), cell: (school) => school.daily_batches },
            { head: w('created'), cell: (school) => time(school.created_at) },
            { head: w('agreement'), cell: agreementText },
            {
              head: w('change'),
              cell: (school) => <QuotaForm key={school.daily_batches} school={school} saved={done} />,
            },
          ]}
        />
      ) : null}
      <PageEnd pages={schools} none={w('none')} end={w('end', { count: schools.items.length })} more={w('more')} />
      <AddSchoolForm added={(name) => done(w('addedWithoutAgreement', { name }))} />
      {schools.items.length > 0 || schools.done ? <SchoolAgreementCard schools={schools.items} changed={done} /> : null}
      <ConsentTextCard />
      <RosterImportCard changed={() => schools.reload()} />
      <AddressBooksCard changed={() => schools.reload()} />
    </>
  );
};

/**
 * Teacher approvals: every school's teachers, those waiting first. Approving or refusing asks first,
 * naming the person (name, phone) and the school, so an operator never decides for the wrong row.
 * Its words in both of the console's languages are kept here, with the screen.
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { usePages } from '@edupass/ui-kit/use-pages.ts';
import { useEffect, useRef, useState } from 'react';
import { approveTeacher, listTeacherRequests, refuseTeacher, type TeacherRequest } from '../api/edu-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { PageEnd } from '../ui/status.tsx';
import { DataTable } from '../ui/table.tsx';

const WORDS = {
  en: {
    title: 'Teacher approvals',
    lead: 'People who asked to teach at a school, after signing in with a phone. An approved teacher opens classes and creates pupil accounts within the quotas.',
    teacher: 'Teacher',
    phone: 'Phone',
    school: 'School',
    asked: 'Asked',
    status: 'Status',
    actions: 'Actions',
    pending: 'Waiting',
    approved: 'Approved',
    approve: 'Approve',
    refuse: 'Refuse',
    approveOf: 'Approve {person}',
    refuseOf: 'Refuse {person}',
    confirmApprove: 'Approve {person} as a teacher of {school}?',
    confirmRefuse: "Refuse {person}'s request to teach at {school}?",
    confirm: 'Yes, decide',
    cancel: 'Cancel',
    didApprove: '{person} now teaches at {school}.',
    didRefuse: "Refused {person}'s request to teach at {school}.",
    none: 'Nobody has asked to teach yet.',
    filter: 'School',
    allSchools: 'All schools',
    more: 'Load more',
    end: '{count} teachers, all shown.',
  },
  'zh-CN': {
    title: '教师审核',
    lead: '用手机号登录后申请在某校任教的人。通过审核的教师可以开设班级，并在配额内创建学生账号。',
    teacher: '教师',
    phone: '手机号',
    school: '学校',
    asked: '申请时间',
    status: '状态',
    actions: '操作',
    pending: '待审核',
    approved: '已通过',
    approve: '通过',
    refuse: '拒绝',
    approveOf: '通过 {person}',
    refuseOf: '拒绝 {person}',
    confirmApprove: '确定通过 {person} 成为 {school} 的教师吗？',
    confirmRefuse: '确定拒绝 {person} 在 {school} 任教的申请吗？',
    confirm: '确定',
    cancel: '取消',
    didApprove: '{person} 已成为 {school} 的教师。',
    didRefuse: '已拒绝 {person} 在 {school} 任教的申请。',
    none: '还没有人申请任教。',
    filter: '学校',
    allSchools: '全部学校',
    more: '加载更多',
    end: '共 {count} 位教师，已全部显示。',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];
/** Requests a page of the table holds. */
const PAGE = 50;
type Decision = 'approve' | 'refuse';

/** The person as the operator sees them: name (or id) and phone. */
const personOf = (request: TeacherRequest) =>
  `${request.name || `#${request.user_id}`}${request.phone ? ` (${request.phone})` : ''}`;

const useScreenWords = screenWords(WORDS);
/** The screen's words, `{person}` and `{school}` filled in from the request they are about. */
const useWords = () => {
  const w = useScreenWords();
  return (word: Word, request?: TeacherRequest) =>
    w(word, request ? { person: personOf(request), school: request.school_name } : undefined);
};

/** The schools met in the pages loaded so far, by id: the filter offers them (and keeps them while filtering). */
const useSchoolsSeen = (requests: TeacherRequest[]) => {
  const seen = useRef(new Map<string, string>());
  for (const r of requests) seen.current.set(String(r.school_id), r.school_name);
  return seen.current;
};

const Confirmation = ({
  decision,
  request,
  busy,
  confirm,
  cancel,
}: {
  decision: Decision;
  request: TeacherRequest;
  busy: boolean;
  confirm(): void;
  cancel(): void;
}) => {
  const w = useWords();
  const yes = useRef<HTMLButtonElement>(null);
  // The question replaces the row's buttons: keyboard focus follows it.
  useEffect(() => yes.current?.focus(), []);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with its two answers, not form fields
    <div className="console-card console-actions" role="group" aria-labelledby="teacher-confirm-question">
      <span id="teacher-confirm-question">
        {w(decision === 'approve' ? 'confirmApprove' : 'confirmRefuse', request)}
      </span>
      <button
        ref={yes}
        type="button"
        className={`console-button${decision === 'refuse' ? ' console-button-danger' : ''}`}
        disabled={busy}
        onClick={confirm}
      >
        {w('confirm')}
      </button>
      <button type="button" className="console-button console-button-quiet" onClick={cancel}>
        {w('cancel')}
      </button>
    </div>
  );
};

export const TeachersScreen = () => {
  const w = useWords();
  const count = useScreenWords();
  const { time, errorText } = useConsoleText();
  const action = useAction(errorText);
  const [asking, setAsking] = useState<{ decision: Decision; request: TeacherRequest } | undefined>();
  const [school, setSchool] = useState('');
  const requests = usePages(
    (last: TeacherRequest | undefined) =>
      listTeacherRequests(last?.cursor, PAGE, school ? Number(school) : undefined).then((items) => ({
        items,
        more: items.length === PAGE,
      })),
    [school],
  );
  const schools = useSchoolsSeen(requests.items);

  const decide = async ({ decision, request }: { decision: Decision; request: TeacherRequest }) => {
    const decided = await action.run(async () => {
      await (decision === 'approve' ? approveTeacher : refuseTeacher)(request.school_id, request.user_id);
      return w(decision === 'approve' ? 'didApprove' : 'didRefuse', request);
    });
    setAsking(undefined);
    if (decided) requests.reload();
  };
  const ask = (decision: Decision, request: TeacherRequest) => (
    <button
      type="button"
      className={`console-button${decision === 'approve' ? '' : ' console-button-quiet'}`}
      aria-label={w(decision === 'approve' ? 'approveOf' : 'refuseOf', request)}
      onClick={() => setAsking({ decision, request })}
    >
      {w(decision)}
    </button>
  );

  return (
    <>
      <h1>{w('title')}</h1>
      <p className="console-lead">{w('lead')}</p>
      <Notice message={action.notice} />
      <FormError message={action.error} />
      {asking ? (
        <Confirmation
          decision={asking.decision}
          request={asking.request}
          busy={action.busy}
          confirm={() => void decide(asking)}
          cancel={() => setAsking(undefined)}
        />
      ) : null}
      <div className="console-filters">
        <label htmlFor="teacher-school">{w('filter')}</label>
        <select id="teacher-school" value={school} onChange={(e) => setSchool(e.target.value)}>
          <option value="">{w('allSchools')}</option>
          {[...schools].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {requests.items.length > 0 ? (
        <DataTable
          rows={requests.items}
          rowKey={(r) => `${r.school_id}:${r.user_id}`}
          caption={w('title')}
          wrap
          columns={[
            { head: w('teacher'), rowHeader: true, cell: (r) => r.name || `#${r.user_id}` },
            { head: w('phone'), cell: (r) => r.phone ?? '—' },
            { head: w('school'), cell: (r) => r.school_name },
            { head: w('asked'), cell: (r) => time(r.created_at) },
            { head: w('status'), cell: (r) => w(r.status) },
            {
              head: w('actions'),
              cell: (r) =>
                r.status === 'pending' ? (
                  <span className="console-actions">
                    {ask('approve', r)}
                    {ask('refuse', r)}
                  </span>
                ) : null,
            },
          ]}
        />
      ) : null}
      <PageEnd
        pages={requests}
        none={w('none')}
        end={count('end', { count: requests.items.length })}
        more={w('more')}
      />
    </>
  );
};

/**
 * Staff access and data rights: operators' requests to read a minor's record (another operator
 * approves or refuses; nobody their own), the data-rights requests with their due dates (late ones
 * marked; answer done, or refused with the reason), and the yearly report (yearly-report.tsx).
 * Its words in both of the console's languages are kept here, with the screen.
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import {
  approveStaffAccess,
  closeDataRequest,
  type DataRequestRow,
  listDataRequests,
  listStaffAccess,
  refuseStaffAccess,
} from '../api/rights-api.ts';
import { type ConsoleLocale, screenWords, useConsoleText } from '../i18n/i18n.ts';
import { Loaded } from '../ui/status.tsx';
import { DataTable } from '../ui/table.tsx';
import { YearlyReport } from './yearly-report.tsx';

const WORDS = {
  en: {
    title: 'Staff access and requests',
    accessTitle: "Requests to read a minor's record",
    accessOn: "Reading a minor's record needs another operator's approval, valid {hours} hours.",
    accessOff: "Reading a minor's record needs a reason; approvals are off (STAFF_ACCESS_APPROVAL).",
    asker: 'Asked by',
    person: 'Whose record',
    reason: 'Reason',
    status: 'Status',
    until: 'Valid until',
    actions: 'Actions',
    approve: 'Approve',
    refuse: 'Refuse',
    pending: 'Waiting',
    approved: 'Approved',
    refused: 'Refused',
    noAccess: 'No requests.',
    didDecide: 'Decided.',
    requestsTitle: 'Data requests',
    openOnly: 'Only those waiting',
    kind: 'Kind',
    made: 'Made',
    due: 'Due',
    late: 'Late',
    onTime: 'On time',
    done: 'Done',
    open: 'Waiting',
    cancelled: 'Cancelled',
    refusalReason: 'Why it is refused (the person is told)',
    markDone: 'Mark done',
    refuseRequest: 'Refuse',
    noRequests: 'No requests.',
    export: 'Export',
    correction: 'Correction',
    deletion: 'Deletion',
    objection: 'Objection',
  },
  'zh-CN': {
    title: '人员访问与个人信息请求',
    accessTitle: '查看未成年人资料的申请',
    accessOn: '查看未成年人的资料需要另一位管理员批准，有效 {hours} 小时。',
    accessOff: '查看未成年人的资料需要填写理由；审批未开启（STAFF_ACCESS_APPROVAL）。',
    asker: '申请人',
    person: '资料所属',
    reason: '理由',
    status: '状态',
    until: '有效至',
    actions: '操作',
    approve: '批准',
    refuse: '拒绝',
    pending: '待审批',
    approved: '已批准',
    refused: '已拒绝',
    noAccess: '没有申请。',
    didDecide: '已处理。',
    requestsTitle: '个人信息请求',
    openOnly: '只看待处理的',
    kind: '类型',
    made: '提出时间',
    due: '截止时间',
    late: '已逾期',
    onTime: '未逾期',
    done: '已完成',
    open: '待处理',
    cancelled: '已取消',
    refusalReason: '拒绝的理由（会告诉本人）',
    markDone: '标记为完成',
    refuseRequest: '拒绝',
    noRequests: '没有请求。',
    export: '导出',
    correction: '更正',
    deletion: '删除',
    objection: '反对',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

const useWords = screenWords(WORDS);

/** A word for a code the server sends, or the code itself when it is a newer one. */
const wordOr = (w: ReturnType<typeof useWords>, code: string) =>
  Object.hasOwn(WORDS.en, code) ? w(code as Word) : code;

const StaffAccess = () => {
  const w = useWords();
  const { time, errorText } = useConsoleText();
  const list = useLoad(listStaffAccess);
  const action = useAction(errorText);
  const decide = async (id: number, approve: boolean) => {
    const decided = await action.run(async () => {
      await (approve ? approveStaffAccess : refuseStaffAccess)(id);
      return w('didDecide');
    });
    if (decided) list.reload();
  };
  return (
    <section className="console-card" aria-labelledby="rights-access">
      <h2 id="rights-access">{w('accessTitle')}</h2>
      <Notice message={action.notice} />
      <FormError message={action.error} />
      <Loaded state={list}>
        {(data) => (
          <>
            <p>{data.approvals_required ? w('accessOn', { hours: String(data.approval_hours) }) : w('accessOff')}</p>
            <DataTable
              wrap
              rows={data.requests}
              rowKey={(r) => r.id}
              empty={w('noAccess')}
              caption={w('accessTitle')}
              columns={[
                { head: w('asker'), rowHeader: true, cell: (r) => r.requested_by_name || `#${r.requested_by}` },
                { head: w('person'), cell: (r) => <a href={`#/users/${r.subject_id}`}>#{r.subject_id}</a> },
                { head: w('reason'), cell: (r) => r.reason },
                { head: w('status'), cell: (r) => wordOr(w, r.status) },
                { head: w('until'), cell: (r) => (r.expires_at ? time(r.expires_at) : '—') },
                {
                  head: w('actions'),
                  cell: (r) =>
                    r.status === 'pending' ? (
                      <span className="console-actions">
                        <button
                          type="button"
                          className="console-button"
                          disabled={action.busy}
                          onClick={() => void decide(r.id, true)}
                        >
                          {w('approve')}
                        </button>
                        <button
                          type="button"
                          className="console-button console-button-quiet"
                          disabled={action.busy}
                          onClick={() => void decide(r.id, false)}
                        >
                          {w('refuse')}
                        </button>
                      </span>
                    ) : null,
                },
              ]}
            />
          </>
        )}
      </Loaded>
    </section>
  );
};

const RequestActions = ({ row, done }: { row: DataRequestRow; done(): void }) => {
  const w = useWords();
  const { errorText } = useConsoleText();
  const action = useAction(errorText);
  const [reason, setReason] = useState('');
  const close = async (status: 'done' | 'refused') => {
    const closed = await action.run(async () => {
      await closeDataRequest(row.id, status, reason.trim() || undefined);
      return w('didDecide');
    });
    if (closed) done();
  };
  return (
    <span className="console-actions">
      <button type="button" className="console-button" disabled={action.busy} onClick={() => void close('done')}>
        {w('markDone')}
      </button>
      <label className="console-visually-hidden" htmlFor={`refusal-${row.id}`}>
        {w('refusalReason')}
      </label>
      <input
        id={`refusal-${row.id}`}
        placeholder={w('refusalReason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button
        type="button"
        className="console-button console-button-quiet"
        disabled={action.busy}
        onClick={() => void close('refused')}
      >
        {w('refuseRequest')}
      </button>
      <FormError message={action.error} />
    </span>
  );
};

const DataRequests = () => {
  const w = useWords();
  const { time } = useConsoleText();
  const [openOnly, setOpenOnly] = useState(true);
  const list = useLoad(() => listDataRequests(openOnly ? 'open' : 'all'), [openOnly]);
  return (
    <section className="console-card" aria-labelledby="rights-requests">
      <h2 id="rights-requests">{w('requestsTitle')}</h2>
      <label className="console-filters">
        <input type="checkbox" checked={openOnly} onChange={(e) => setOpenOnly(e.target.checked)} /> {w('openOnly')}
      </label>
      <Loaded state={list}>
        {(rows) => (
          <DataTable
            wrap
            rows={rows}
            rowKey={(r) => r.id}
            empty={w('noRequests')}
            caption={w('requestsTitle')}
            columns={[
              { head: w('kind'), rowHeader: true, cell: (r) => wordOr(w, r.kind) },
              { head: w('person'), cell: (r) => <a href={`#/users/${r.user_id}`}>#{r.user_id}</a> },
              { head: w('made'), cell: (r) => time(r.created_at) },
              {
                head: w('due'),
                cellProps: (r) => ({ className: r.late ? 'console-danger' : '' }),
                cell: (r) => `${time(r.due_at)} · ${r.late ? w('late') : w('onTime')}`,
              },
              { head: w('status'), cell: (r) => [wordOr(w, r.status), r.refusal_reason].filter(Boolean).join(' · ') },
              {
                head: w('actions'),
                cell: (r) => (r.status === 'open' ? <RequestActions row={r} done={list.reload} /> : null),
              },
            ]}
          />
        )}
      </Loaded>
    </section>
  );
};

export const RightsScreen = () => {
  const w = useWords();
  return (
    <>
      <h1>{w('title')}</h1>
      <StaffAccess />
      <DataRequests />
      <YearlyReport />
    </>
  );
};

/**
 * What the user page shows when the record is a minor's: the server refused it without a reason
 * (E_1), or without another operator's approval where approvals are on (E_4). The operator writes why
 * (kept in the access log the family sees) and opens the record, or asks for an approval with it.
 * Its words in both of the console's languages are kept here, with the screen.
 */
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { requestStaffAccess } from '../api/rights-api.ts';
import { type ConsoleLocale, useConsoleText } from '../i18n/i18n.ts';

const WORDS = {
  en: {
    title: "A minor's record",
    body: 'This account belongs to a child under 18. Say why you need to read it: the reason is kept in the access log, which the child and their guardian can see.',
    approval:
      "Reading it also needs another operator's approval. Ask for one with your reason; it shows under Staff access and requests.",
    reason: 'Reason',
    open: 'Open the record',
    ask: 'Ask for approval',
    asked: 'Asked. Another operator decides under Staff access and requests.',
  },
  'zh-CN': {
    title: '未成年人的资料',
    body: '这是未满 18 岁的孩子的账号。请说明为什么需要查看：理由会记入访问记录，孩子和监护人都能看到。',
    approval: '查看还需要另一位管理员批准。请写明理由提出申请，申请会出现在“访问与请求”中。',
    reason: '理由',
    open: '查看资料',
    ask: '申请批准',
    asked: '已申请，等待另一位管理员在“访问与请求”中处理。',
  },
} as const satisfies Record<ConsoleLocale, Record<string, string>>;

/** Whether the user page's failure is a minor's record asking for a reason or an approval. */
export const minorRefusal = (error: unknown): 'reason' | 'approval' | undefined => {
  const code = (error as { serverCode?: string } | undefined)?.serverCode;
  return code === 'E_1' ? 'reason' : code === 'E_4' ? 'approval' : undefined;
};

export const MinorAccess = ({
  userId,
  needs,
  given: before,
  open,
}: {
  userId: number;
  needs: 'reason' | 'approval';
  /** The reason given last time, if any. */
  given?: string | undefined;
  open(reason: string): void;
}) => {
  const { locale, errorText } = useConsoleText();
  const w = WORDS[locale];
  const action = useAction(errorText);
  const [reason, setReason] = useState(before ?? '');
  const given = reason.trim();
  return (
    <section className="console-card" aria-labelledby="minor-access">
      <h2 id="minor-access">{w.title}</h2>
      <p>{w.body}</p>
      {needs === 'approval' ? <p>{w.approval}</p> : null}
      <form
        className="console-filters"
        onSubmit={(event) => {
          event.preventDefault();
          if (given) open(given);
        }}
      >
        <label htmlFor="minor-reason">{w.reason}</label>
        <input id="minor-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        <button type="submit" className="console-button" disabled={!given}>
          {w.open}
        </button>
        {needs === 'approval' ? (
          <button
            type="button"
            className="console-button console-button-quiet"
            disabled={!given || action.busy}
            onClick={() =>
              void action.run(async () => {
                await requestStaffAccess(userId, given);
                return w.asked;
              })
            }
          >
            {w.ask}
          </button>
        ) : null}
      </form>
      <Notice message={action.notice} />
      <FormError message={action.error} />
    </section>
  );
};

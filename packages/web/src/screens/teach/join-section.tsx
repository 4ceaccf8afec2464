/** Pupils with accounts of their own join by the class's code; the teacher approves or refuses each request. */
import { type ClassDetail, eduTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';

type Member = ClassDetail['members'][number];

export const JoinSection = ({
  classId,
  requests,
  onChanged,
}: {
  classId: number;
  requests: Member[];
  onChanged(): void;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const [code, setCode] = useState<string | null>(null);
  const newCode = () =>
    action.run(async () => {
      setCode((await eduCall(eduTable.openJoinCode, { params: { id: classId } })).join_code);
    });
  const answer = (member: Member, approve: boolean) =>
    action.run(async () => {
      const params = { id: classId, user_id: member.user_id };
      await (approve ? eduCall(eduTable.approveJoin, { params }) : eduCall(eduTable.refuseJoin, { params }));
      onChanged();
      return t(approve ? 'teach.approved' : 'teach.refused', { name: member.name });
    });
  return (
    <section className="subsection" aria-labelledby="join-title">
      <h2 id="join-title">{t('teach.joinCode')}</h2>
      <p className="muted">{t('teach.joinCodeIntro')}</p>
      {code ? (
        <p className="join-code" role="status">
          {t('teach.joinCodeIs')} <strong className="mono">{code}</strong>
        </p>
      ) : null}
      <button type="button" className="button secondary" aria-busy={action.busy} onClick={newCode}>
        {t('teach.newJoinCode')}
      </button>
      <h3>{t('teach.requests')}</h3>
      {requests.length === 0 ? <p className="muted">{t('teach.noRequests')}</p> : null}
      <ul className="teach-list">
        {requests.map((member) => (
          <li key={member.user_id} className="teach-row">
            <span>{member.name}</span>
            <span className="row-actions">
              <button type="button" className="button secondary" onClick={() => answer(member, true)}>
                {t('teach.approve')}
                <span className="visually-hidden"> {member.name}</span>
              </button>
              <button type="button" className="button ghost" onClick={() => answer(member, false)}>
                {t('teach.refuse')}
                <span className="visually-hidden"> {member.name}</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
      <FormError message={action.error} onRetry={action.retry} />
      <Notice message={action.notice} />
    </section>
  );
};

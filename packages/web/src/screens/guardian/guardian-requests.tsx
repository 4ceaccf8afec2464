/**
 * Guardian links waiting for the family, in the guardian area: a guardian sees who asks to be added to
 * their child (name, masked phone, the relation they gave, the day it is approved by itself) and says
 * yes or no; someone who spent a child's code while the child has a guardian sees the waiting screen
 * (or that the family said no) and nothing of the child.
 */
import type { GuardianRequests } from '@edupass/protocol';
import { guardianLinkTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { shownNickname } from '../../ui/nickname.ts';
import { relationKey } from '../../ui/relation-field.tsx';

type ToDecide = GuardianRequests['to_decide'][number];
type Mine = GuardianRequests['mine'][number];

const useDay = () => {
  const { locale } = useI18n();
  return (ms: number) => new Date(ms).toLocaleDateString(locale, { dateStyle: 'long' });
};

/** One request on the caller's child: who asks, and yes or no (no asks first). */
const RequestCard = ({ request, onDecided }: { request: ToDecide; onDecided(notice: string): void }) => {
  const { t } = useI18n();
  const day = useDay();
  const action = useAction();
  const confirm = useConfirm();
  const child = shownNickname(request.child.nickname, t) || `#${request.child.id}`;
  const name = shownNickname(request.name, t) || request.phone;
  const relation = t(relationKey(request.relation));
  const params = { params: { id: request.id } };
  return (
    <li className="guardian-request" data-testid="guardian-request">
      <p>
        <strong>{t('guardian.requestBody', { name, phone: request.phone, child, relation })}</strong>
      </p>
      <p className="hint">
        {t('guardian.requestAsked', { date: day(request.asked_at), opens: day(request.opens_at) })}
      </p>
      {request.school ? <p className="hint">{t('guardian.requestSchool', { school: request.school })}</p> : null}
      <p className="hint">{t('guardian.requestStranger')}</p>
      <p>
        <button
          type="button"
          className="button primary block"
          aria-busy={action.busy}
          onClick={() =>
            void action.run(async () => {
              await eduCall(guardianLinkTable.approveGuardianRequest, params);
              onDecided(t('guardian.approved', { child }));
            })
          }
        >
          {t('guardian.approve')}
        </button>
      </p>
      <p>
        <button
          type="button"
          className="button block"
          aria-busy={action.busy}
          onClick={() =>
            void action.run(async () => {
              const sure = await confirm.ask({
                title: t('guardian.refuseAsk', { name }),
                body: t('guardian.refuseBody', { child }),
                confirmLabel: t('guardian.refuse'),
              });
              if (!sure) return;
              await eduCall(guardianLinkTable.refuseGuardianRequest, params);
              onDecided(t('guardian.refused'));
            })
          }
        >
          {t('guardian.refuse')}
        </button>
      </p>
      <FormError message={action.error} />
      {confirm.dialog}
    </li>
  );
};

export const RequestsToDecide = ({ requests, onDecided }: { requests: ToDecide[]; onDecided(): void }) => {
  const { t } = useI18n();
  const [notice, setNotice] = useState<string | null>(null);
  if (requests.length === 0) return notice ? <Notice message={notice} /> : null;
  return (
    <section className="account-section" aria-labelledby="requests-title">
      <h2 id="requests-title">{t('guardian.requestsTitle')}</h2>
      <ul className="guardian-requests">
        {requests.map((request) => (
          <RequestCard
            key={request.id}
            request={request}
            onDecided={(said) => {
              setNotice(said);
              onDecided();
            }}
          />
        ))}
      </ul>
      <Notice message={notice} />
    </section>
  );
};

/** The caller's own requests: waiting (with the day it opens by itself), or refused. */
export const OwnRequests = ({ mine }: { mine: Mine[] }) => {
  const { t } = useI18n();
  const day = useDay();
  const shown = mine.filter((r) => r.state !== 'approved').slice(0, 3);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((request) =>
        request.state === 'pending' ? (
          <section
            key={request.id}
            className="account-section"
            aria-labelledby={`waiting-${request.id}`}
            data-testid="guardian-waiting"
          >
            <h2 id={`waiting-${request.id}`}>{t('guardian.waitingTitle')}</h2>
            <p role="status">{t('guardian.waitingBody')}</p>
            <p className="hint">{t('guardian.waitingOpens', { date: day(request.opens_at) })}</p>
          </section>
        ) : (
          <section
            key={request.id}
            className="account-section"
            aria-labelledby={`refused-${request.id}`}
            data-testid="guardian-refused"
          >
            <h2 id={`refused-${request.id}`}>{t('guardian.refusedTitle')}</h2>
            <p>{t('guardian.refusedBody', { date: day(request.decided_at ?? request.asked_at) })}</p>
          </section>
        ),
      )}
    </>
  );
};

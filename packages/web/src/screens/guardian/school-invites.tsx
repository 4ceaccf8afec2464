/**
 * Pupils whose school's address book lists the caller's phone as a guardian (WeCom, DingTalk): the
 * school's record is not the guardian's consent, so each waits here until the guardian asks for a code
 * by SMS to the phone the school recorded and confirms with it. Nothing shows when none waits.
 */
import { type SchoolInvites as Invites, schoolInviteTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { CodeInput } from '../../ui/account-fields.tsx';
import { relationKey } from '../../ui/relation-field.tsx';
import { useSendCode } from '../../ui/use-send-code.ts';

type Invite = Invites['invites'][number];

const InviteCard = ({
  invite,
  onConfirmed,
}: {
  invite: Invite;
  onConfirmed(childId: number, notice: string): void;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const codes = useSendCode(action);
  const params = { params: { id: invite.id } };
  // The code goes to the phone the school recorded (shown masked): by SMS only.
  const onSend = Object.assign(
    codes.sender('common', invite.phone, () => eduCall(schoolInviteTable.schoolInviteCode, params)),
    { voice: undefined },
  );
  return (
    <li className="guardian-request" data-testid="school-invite">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void action.run(async () => {
            const outcome = await eduCall(schoolInviteTable.confirmSchoolInvite, {
              ...params,
              body: { captcha: codes.code },
            });
            onConfirmed(
              outcome.child_id,
              t(outcome.state === 'pending' ? 'guardian.inviteAsked' : 'guardian.inviteLinked', {
                child: invite.child_name,
              }),
            );
          });
        }}
      >
        <p>
          <strong>
            {t('guardian.inviteBody', {
              school: invite.school,
              child: invite.child_name,
              relation: t(relationKey(invite.relation)),
            })}
          </strong>
        </p>
        <CodeInput
          hint={t('guardian.inviteCodeHint', { phone: invite.phone })}
          value={codes.code}
          onValue={codes.setCode}
          bind={action.field('captcha')}
          required
          blockedReason={null}
          onSend={onSend}
        />
        <FormError message={action.error} />
        <p>
          <button type="submit" className="button primary block" aria-busy={action.busy}>
            {t('guardian.inviteConfirm')}
          </button>
        </p>
      </form>
    </li>
  );
};

/** The invites waiting for the caller; once one is confirmed it leaves the list, and what happened is said. */
export const SchoolInvites = ({ onConfirmed }: { onConfirmed(childId: number): void }) => {
  const { t } = useI18n();
  const invites = useLoad(() => eduCall(schoolInviteTable.schoolInvites));
  const [notice, setNotice] = useState<string | null>(null);
  const list = invites.data?.invites ?? [];
  if (list.length === 0) return <Notice message={notice} />;
  return (
    <section className="account-section" aria-labelledby="school-invites-title">
      <h2 id="school-invites-title">{t('guardian.invitesTitle')}</h2>
      <p className="hint">{t('guardian.invitesBody')}</p>
      <Notice message={notice} />
      <ul className="guardian-requests">
        {list.map((invite) => (
          <InviteCard
            key={invite.id}
            invite={invite}
            onConfirmed={(childId, said) => {
              setNotice(said);
              invites.reload();
              onConfirmed(childId);
            }}
          />
        ))}
      </ul>
    </section>
  );
};

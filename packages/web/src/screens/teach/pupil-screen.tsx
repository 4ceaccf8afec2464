/**
 * One pupil of a class the caller teaches: name and username, a password reset (new details and card)
 * and a new card (neither in an archived class, which is read-only). A pupil who is not (or no longer) in the class is not found, as the server says.
 */
import { eduTable, type PupilCredentials } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { AccountLayout } from '../account/account-layout.tsx';
import { BackLink } from './back-link.tsx';
import { CardSheet } from './card-sheet.tsx';
import { CredentialsTable } from './credentials-table.tsx';
import { isNotFound, TeachNotFound } from './teach-not-found.tsx';
import { teachPaths } from './teach-paths.ts';

const loadPupil = async (classId: number, userId: number) => {
  const detail = await eduCall(eduTable.getClass, { params: { id: classId } });
  const pupil = detail.members.find((m) => m.user_id === userId && m.role === 'pupil' && m.status === 'active');
  return pupil ? { pupil, className: detail.class.name, archived: detail.class.archived } : null;
};

export const PupilScreen = ({ classId, userId }: { classId: number; userId: number }) => {
  const { t } = useI18n();
  const load = useLoad(() => loadPupil(classId, userId), [classId, userId]);
  const loadError = useLoadError(load);
  const action = useAction();
  const confirm = useConfirm();
  const [reset, setReset] = useState<PupilCredentials[] | null>(null);
  const found = load.data;
  if (found === null || (load.status === 'failed' && isNotFound(load.error))) {
    return (
      <AccountLayout title={t('teach.pupilNotFound')}>
        <TeachNotFound message={t('teach.pupilNotFoundBody')} />
      </AccountLayout>
    );
  }
  const resetPassword = async () => {
    if (!found) return;
    const sure = await confirm.ask({
      title: t('teach.resetOneTitle', { name: found.pupil.name }),
      body: t('teach.resetBody'),
      confirmLabel: t('teach.resetOne'),
    });
    if (!sure) return;
    await action.run(async () => {
      const answer = await eduCall(eduTable.resetPupils, { params: { id: classId }, body: { user_ids: [userId] } });
      setReset(answer.pupils);
      return t('teach.resetDone', { count: answer.pupils.length });
    });
  };
  return (
    <AccountLayout title={found ? found.pupil.name : t('teach.pupilTitle')}>
      <BackLink href={teachPaths.class(classId)} label={t('teach.backToClass')} />
      <FormError {...loadError} />
      {found ? (
        <>
          <dl className="facts">
            <dt>{t('teach.className')}</dt>
            <dd>{found.className}</dd>
            <dt>{t('teach.username')}</dt>
            <dd className="mono">{found.pupil.username ?? ''}</dd>
          </dl>
          {found.archived ? (
            <p className="muted">{t('teach.archivedReadOnly')}</p>
          ) : found.pupil.managed_by_school ? (
            <div className="actions">
              <button type="button" className="button secondary" aria-busy={action.busy} onClick={resetPassword}>
                {t('teach.resetOne')}
              </button>
              <CardSheet classId={classId} userIds={[userId]} label={t('teach.printOne')} />
            </div>
          ) : (
            <p className="muted">{t('teach.managedByPupil')}</p>
          )}
          <FormError message={action.error} onRetry={action.retry} />
          <Notice message={action.notice} />
          {reset ? <CredentialsTable classId={classId} pupils={reset} caption={t('teach.newDetails')} /> : null}
        </>
      ) : null}
      {confirm.dialog}
    </AccountLayout>
  );
};

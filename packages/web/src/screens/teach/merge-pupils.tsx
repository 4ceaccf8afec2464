/**
 * A school admin's way to make a pupil's two accounts one (say one from the roster and one the
 * school's sign-in made): the school's pupils who share a name on several accounts (as people write
 * it), with what says they are one (the same name, another spelling, the same birth month), each with its
 * username and classes (name, grade, year); the admin chooses the account that stays, then merges each
 * other one into it after a confirmation. The kept account takes the other's classes, guardians,
 * consent and cards; the other ends. Why an account cannot stay or end is said beside it.
 */
import { type DuplicateReason, type MergeCandidate, type MergeRefusal, pupilMergeTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useLoad } from '@edupass/ui-kit/use-load.ts';
import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import type { TextKey } from '../../i18n/locales/en.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { useLoadError } from '../../ui/load-error.ts';
import { classLabel } from './class-facts.tsx';

const whyKey = (reason: string) => `teach.mergeWhy.${reason as MergeRefusal}` as TextKey;

/** The account a group starts with as the one to keep: one with its own sign-in (it cannot end), else the oldest. */
const firstKeep = (accounts: MergeCandidate[]) =>
  (
    accounts.find((a) => a.own_sign_in && a.refused_as_keep === null) ??
    accounts.find((a) => a.refused_as_keep === null)
  )?.user_id;

const Facts = ({ account }: { account: MergeCandidate }) => {
  const { t } = useI18n();
  return (
    <span className="muted">
      {t('teach.accountId', { id: account.user_id })}
      {account.username ? ` · ${account.username}` : ''}
      {' · '}
      {account.classes.length > 0 ? account.classes.map((c) => classLabel(t, c)).join('；') : t('teach.mergeNoClass')}
      {account.own_sign_in ? ` · ${t('teach.mergeOwnSignIn')}` : ''}
    </span>
  );
};

const Group = ({
  schoolId,
  name,
  reasons,
  accounts,
  onMerged,
}: {
  schoolId: number;
  name: string;
  /** What says the accounts may be one pupil (the server's evidence). */
  reasons: DuplicateReason[];
  accounts: MergeCandidate[];
  onMerged(notice: string): void;
}) => {
  const { t } = useI18n();
  const action = useAction();
  const confirm = useConfirm();
  const radio = useId();
  const [keep, setKeep] = useState(() => firstKeep(accounts));
  const kept = accounts.find((a) => a.user_id === keep);
  const mergeInto = async (end: MergeCandidate) => {
    if (!kept) return;
    const sure = await confirm.ask({
      title: t('teach.mergeConfirmTitle', { name }),
      body: t('teach.mergeConfirmBody', { keep: kept.user_id, end: end.user_id }),
      confirmLabel: t('teach.merge'),
    });
    if (!sure) return;
    await action.run(async () => {
      await eduCall(pupilMergeTable.mergePupils, {
        params: { id: schoolId },
        body: { keep: kept.user_id, end: end.user_id },
      });
      onMerged(t('teach.mergeDone', { name, keep: kept.user_id, end: end.user_id }));
    });
  };
  return (
    <li className="merge-group">
      <fieldset className="field">
        <legend>{t('teach.mergeWhichStays', { name })}</legend>
        <p className="muted">
          {reasons
            .map((r) => t(`teach.mergeReason.${r}`, { names: [...new Set(accounts.map((a) => a.name))].join(' / ') }))
            .join(' · ')}
        </p>
        <div className="radios stacked">
          {accounts.map((a) => (
            <label key={a.user_id}>
              <input
                type="radio"
                name={radio}
                checked={keep === a.user_id}
                disabled={a.refused_as_keep !== null}
                onChange={() => setKeep(a.user_id)}
              />
              <span>
                {t('teach.mergeKeepThis')} <Facts account={a} />
                {a.refused_as_keep ? <span className="muted"> · {t(whyKey(a.refused_as_keep))}</span> : null}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <ul className="teach-list">
        {accounts
          .filter((a) => a.user_id !== keep)
          .map((a) => (
            <li key={a.user_id} className="teach-row">
              <Facts account={a} />
              {a.refused_as_end || !kept ? (
                <span className="muted">{a.refused_as_end ? t(whyKey(a.refused_as_end)) : ''}</span>
              ) : (
                <button type="button" className="button secondary" onClick={() => void mergeInto(a)}>
                  {t('teach.mergeInto', { end: a.user_id, keep: kept.user_id })}
                </button>
              )}
            </li>
          ))}
      </ul>
      <FormError message={action.error} onRetry={action.retry} />
      {confirm.dialog}
    </li>
  );
};

export const MergePupils = ({ schoolId }: { schoolId: number }) => {
  const { t } = useI18n();
  const load = useLoad(() => eduCall(pupilMergeTable.pupilDuplicates, { params: { id: schoolId } }), [schoolId]);
  const loadError = useLoadError(load);
  const [notice, setNotice] = useState<string | null>(null);
  const groups = load.data?.groups ?? [];
  return (
    <section className="subsection" aria-labelledby="merge-title">
      <h2 id="merge-title">{t('teach.mergeTitle')}</h2>
      <p className="muted">{t('teach.mergeIntro')}</p>
      <FormError {...loadError} />
      <Notice message={notice} />
      {load.data && groups.length === 0 ? <p>{t('teach.mergeNone')}</p> : null}
      <ul className="teach-list">
        {groups.map((g) => (
          <Group
            key={`${g.name}:${g.accounts.map((a) => a.user_id).join(',')}`}
            schoolId={schoolId}
            name={g.name}
            reasons={g.reasons}
            accounts={g.accounts}
            onMerged={(done) => {
              setNotice(done);
              load.reload();
            }}
          />
        ))}
      </ul>
    </section>
  );
};

/**
 * A class's pupils, each with a way to their page and a box to select them: the selected pupils'
 * passwords reset (their new details and cards shown), moved to another class of the school, or
 * their cards printed (the whole class's when none is chosen); each pupil's guardian consent beside
 * the name, and what waiting for one means.
 */
import { type ClassDetail, eduTable, type PupilCredentials } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { useConfirm } from '../../ui/confirm.tsx';
import { Link } from '../../ui/link.tsx';
import { CardSheet } from './card-sheet.tsx';
import { classLabel } from './class-facts.tsx';
import { ConsentMark, ConsentWaiting } from './consent-mark.tsx';
import { CredentialsTable } from './credentials-table.tsx';
import { teachPaths } from './teach-paths.ts';

type Member = ClassDetail['members'][number];

export interface PupilListProps {
  classId: number;
  pupils: Member[];
  /** The school's other classes the caller teaches (where pupils may move). */
  moveTargets: { id: number; name: string; grade: number; school_year: string }[];
  /** An archived class is read-only: no resets or cards (the server refuses them). */
  archived?: boolean;
  onChanged(): void;
}

export const PupilList = ({ classId, pupils, moveTargets, archived = false, onChanged }: PupilListProps) => {
  const { t } = useI18n();
  const action = useAction();
  const confirm = useConfirm();
  const targetId = useId();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [target, setTarget] = useState('');
  const [reset, setReset] = useState<PupilCredentials[] | null>(null);
  const chosen = pupils.filter((p) => selected.has(p.user_id)).map((p) => p.user_id);
  const toggle = (userId: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(userId);
    else next.delete(userId);
    setSelected(next);
  };

  const resetChosen = async () => {
    const sure = await confirm.ask({
      title: t('teach.resetTitle', { count: chosen.length }),
      body: t('teach.resetBody'),
      confirmLabel: t('teach.reset'),
    });
    if (!sure) return;
    await action.run(async () => {
      const answer = await eduCall(eduTable.resetPupils, { params: { id: classId }, body: { user_ids: chosen } });
      setReset(answer.pupils);
      return t('teach.resetDone', { count: answer.pupils.length });
    });
  };
  const moveChosen = () =>
    action.run(async () => {
      const to = Number(target || moveTargets[0]?.id);
      await eduCall(eduTable.movePupils, { params: { id: classId }, body: { user_ids: chosen, to_class_id: to } });
      setSelected(new Set());
      onChanged();
      return t('teach.moveDone', { count: chosen.length });
    });

  const none = chosen.length === 0;
  return (
    <section className="subsection" aria-labelledby="pupils-title">
      <h2 id="pupils-title">{t('teach.pupils', { count: pupils.length })}</h2>
      {pupils.length === 0 ? <p className="muted">{t('teach.noPupils')}</p> : null}
      {pupils.length > 0 ? (
        <>
          <ConsentWaiting pupils={pupils} />
          <label className="check-row">
            <input
              type="checkbox"
              checked={chosen.length === pupils.length}
              onChange={(e) => setSelected(new Set(e.target.checked ? pupils.map((p) => p.user_id) : []))}
            />
            {t('teach.selectAll')}
          </label>
          <ul className="teach-list pupils">
            {pupils.map((p) => (
              <li key={p.user_id} className="teach-row">
                <label className="check-row">
                  <input
                    type="checkbox"
                    checked={selected.has(p.user_id)}
                    onChange={(e) => toggle(p.user_id, e.target.checked)}
                  />
                  <span className="visually-hidden">{t('teach.select', { name: p.name })}</span>
                </label>
                <Link className="teach-link" href={teachPaths.pupil(classId, p.user_id)}>
                  {p.name}
                </Link>
                <span className="mono muted">{p.username ?? ''}</span>
                <ConsentMark pupil={p} />
              </li>
            ))}
          </ul>
          <p className="muted" aria-live="polite">
            {t('teach.selected', { count: chosen.length })}
          </p>
          {archived ? (
            <p className="muted">{t('teach.archivedReadOnly')}</p>
          ) : (
            <div className="actions">
              <button
                type="button"
                className="button secondary"
                aria-disabled={none || undefined}
                onClick={() => !none && resetChosen()}
              >
                {t('teach.reset')}
              </button>
              {/* One print button: the chosen pupils' cards, or the whole class's when none is chosen. */}
              <CardSheet
                key={none ? 'all' : 'chosen'}
                classId={classId}
                {...(none ? {} : { userIds: chosen })}
                label={none ? t('teach.printAll') : t('teach.printSelected', { count: chosen.length })}
              />
            </div>
          )}
          {moveTargets.length > 0 ? (
            <div className="move-row">
              <div className="field">
                <label htmlFor={targetId}>{t('teach.moveTo')}</label>
                <select id={targetId} value={target} onChange={(e) => setTarget(e.target.value)}>
                  {moveTargets.map((c) => (
                    <option key={c.id} value={c.id}>
                      {classLabel(t, c)}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className="button secondary"
                aria-disabled={none || undefined}
                onClick={() => !none && moveChosen()}
              >
                {t('teach.move')}
              </button>
            </div>
          ) : (
            <p className="muted">{t('teach.noOtherClass')}</p>
          )}
          <FormError message={action.error} onRetry={action.retry} />
          <Notice message={action.notice} />
          {reset ? <CredentialsTable classId={classId} pupils={reset} caption={t('teach.newDetails')} /> : null}
        </>
      ) : null}
      {confirm.dialog}
    </section>
  );
};

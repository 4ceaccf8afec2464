/**
 * A child's time limits in the guardian area: minutes a day and the hours of no use. The server takes
 * only limits stricter than the site's (the hint says what those are); "Use the site's limits" clears
 * the guardian's own. The minutes are a choice of steps (every 10 minutes up to the site's, and the
 * child's own where it is between), never a box whose "60" becomes "6030" when a phone user types 30.
 * The hours of no use are a choice of half hours written as the site writes its own (22:00), not the
 * browser's time box, which speaks the browser's language (10:00 PM on a Chinese page).
 */
import { type ChildRecord, guardianLinkTable } from '@edupass/protocol';
import { FormError, Notice } from '@edupass/ui-kit/status.tsx';
import { useAction } from '@edupass/ui-kit/use-action.ts';
import { useId, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';

/** Every 10 minutes up to the site's limit, the site's limit and the child's current one, in order. */
export const minuteChoices = (most: number, current: number | null) =>
  [...new Set([...Array.from({ length: Math.floor(most / 10) }, (_, i) => (i + 1) * 10), most, current ?? most])]
    .filter((m) => m >= 0 && m <= most)
    .sort((a, b) => a - b);

/** Every half hour of the day (00:00 … 23:30), and `current` where it is between two. */
export const timeChoices = (current: string) =>
  [
    ...new Set([
      ...Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`),
      ...(/^\d{2}:\d{2}$/.test(current) ? [current] : []),
    ]),
  ].sort();

const TimeField = ({ label, value, onValue }: { label: string; value: string; onValue: (v: string) => void }) => {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} required value={value} onChange={(event) => onValue(event.target.value)}>
        {timeChoices(value).map((time) => (
          <option key={time} value={time}>
            {time}
          </option>
        ))}
      </select>
    </div>
  );
};

const curfewEnds = (curfew: string | null) => {
  const [from = '', to = ''] = (curfew ?? '').split('-');
  return { from, to };
};

export const MinorLimitsForm = ({ record, onSaved }: { record: ChildRecord; onSaved: () => void }) => {
  const { t } = useI18n();
  const action = useAction();
  const ids = { minutes: useId() };
  const { minor, defaults } = record;
  const [minutes, setMinutes] = useState(String(minor.daily_limit_minutes ?? defaults.daily_limit_minutes ?? ''));
  // Without a curfew of the child's own, the site's is shown (a list always shows one of its times).
  const [from, setFrom] = useState(curfewEnds(minor.curfew ?? defaults.curfew).from);
  const [to, setTo] = useState(curfewEnds(minor.curfew ?? defaults.curfew).to);
  if (defaults.daily_limit_minutes === null || defaults.curfew === null) return <p>{t('guardian.noLimits')}</p>;
  const save = (body: { daily_limit_minutes?: number; curfew?: string }) =>
    action.run(async () => {
      const saved = await eduCall(guardianLinkTable.setChildMinorMode, { params: { id: record.child.id }, body });
      setMinutes(String(saved.daily_limit_minutes ?? defaults.daily_limit_minutes ?? ''));
      setFrom(curfewEnds(saved.curfew ?? defaults.curfew).from);
      setTo(curfewEnds(saved.curfew ?? defaults.curfew).to);
      onSaved();
      return t('guardian.saved');
    });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save({ daily_limit_minutes: Number(minutes), curfew: `${from}-${to}` });
      }}
    >
      <p className="hint">
        {t('guardian.limitsBody', {
          minutes: defaults.daily_limit_minutes,
          curfew: defaults.curfew.replace('-', '–'),
        })}
      </p>
      <div className="field">
        <label htmlFor={ids.minutes}>{t('guardian.minutes')}</label>
        <select
          id={ids.minutes}
          required
          value={minutes}
          onChange={(event) => setMinutes(event.target.value)}
          data-testid="daily-minutes"
        >
          {minuteChoices(defaults.daily_limit_minutes, minor.daily_limit_minutes).map((m) => (
            <option key={m} value={m}>
              {t('guardian.minutesOption', { minutes: m })}
            </option>
          ))}
        </select>
      </div>
      <TimeField label={t('guardian.curfewFrom')} value={from} onValue={setFrom} />
      <TimeField label={t('guardian.curfewTo')} value={to} onValue={setTo} />
      <FormError message={action.error} />
      <Notice message={action.notice} />
      <p>
        <button type="submit" className="button primary block" aria-busy={action.busy}>
          {t('guardian.saveLimits')}
        </button>
      </p>
      <p>
        <button type="button" className="button block" aria-busy={action.busy} onClick={() => void save({})}>
          {t('guardian.resetLimits')}
        </button>
      </p>
    </form>
  );
};

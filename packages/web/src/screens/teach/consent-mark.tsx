/**
 * A pupil's guardian consent as the class page shows it: a short mark beside the name, and above the
 * list what waiting means and what the teacher can do (the guardian code on the card; the school's
 * agreement), with the date a waiting account is deleted.
 */
import type { ClassDetail } from '@edupass/protocol';
import { useI18n } from '../../i18n/i18n.ts';

type Member = ClassDetail['members'][number];

const day = (locale: string, ms: number) => new Date(ms).toLocaleDateString(locale, { dateStyle: 'long' });
/** The mark's date: day and month, so the mark fits one line on a phone (the note above names the year). */
const shortDay = (locale: string, ms: number) =>
  new Date(ms).toLocaleDateString(locale, { month: 'short', day: 'numeric' });

export const ConsentMark = ({ pupil }: { pupil: Member }) => {
  const { t, locale } = useI18n();
  switch (pupil.consent) {
    case 'pending':
      return (
        <span className="consent-mark waiting">
          {t('teach.consentWaiting', { date: shortDay(locale, pupil.consent_due_at ?? Date.now()) })}
        </span>
      );
    case 'withdrawn':
      return <span className="consent-mark stopped">{t('teach.consentWithdrawn')}</span>;
    case 'granted':
      return <span className="consent-mark muted">{t('teach.consentGranted')}</span>;
    case 'school':
      return <span className="consent-mark muted">{t('teach.consentSchool')}</span>;
    default:
      return null;
  }
};

/** Above the list, when some pupils wait for a guardian: why, what the teacher can do, and the first deletion date. */
export const ConsentWaiting = ({ pupils }: { pupils: Member[] }) => {
  const { t, locale } = useI18n();
  const waiting = pupils.filter((p) => p.consent === 'pending');
  if (waiting.length === 0) return null;
  const first = Math.min(...waiting.map((p) => p.consent_due_at ?? Number.POSITIVE_INFINITY));
  return (
    <div className="consent-waiting" role="note">
      <p>
        <strong>{t('teach.consentWaitingCount', { count: waiting.length })}</strong>
      </p>
      <p>{t('teach.consentWhy')}</p>
      <p>{t('teach.consentWhatToDo')}</p>
      {Number.isFinite(first) ? <p>{t('teach.consentDeletedOn', { date: day(locale, first) })}</p> : null}
    </div>
  );
};

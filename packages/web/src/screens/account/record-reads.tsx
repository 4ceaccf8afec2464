/**
 * "Who read my record" (issue #32 item 3): the teachers' and operators' reads of a person's record,
 * the applications they let in, and the copies of their data made. The account centre's privacy page
 * shows the user's own; the family part shows a child's to a linked guardian (same list, the
 * guardian's route). A teacher is named as the school knows them (the name they gave it, the school),
 * a guardian by relation; one reader's reads of one day are one row.
 */
import { type EduAccessLog, eduTable, rightsUserTable } from '@edupass/protocol';
import { FormError } from '@edupass/ui-kit/status.tsx';
import { type PagesResult, usePages } from '@edupass/ui-kit/use-pages.ts';
import { useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n.ts';
import { eduCall } from '../../session/edu.ts';
import { useLoadError } from '../../ui/load-error.ts';
import { shownNickname } from '../../ui/nickname.ts';
import { shownGuardianName } from '../../ui/relation-field.tsx';

/** The words for a code the server sends (a field, a purpose, a status), or the code itself for one it added later. */
const useWords = () => {
  const { t } = useI18n();
  return (prefix: string, code: string) => {
    const key = `${prefix}.${code}`;
    const said = t(key as Parameters<typeof t>[0]);
    return said === '' ? code : said;
  };
};

type Read = EduAccessLog['reads'][number];

/**
 * One row for one reader's reads of one day (the server keeps one read of each kind a day: a teacher
 * who opened the class and printed cards is two): the day's first read, with every field and every
 * reason of the day. China Standard Time, as the server counts days.
 */
const byReaderAndDay = (reads: Read[]): (Read & { purposes: string[] })[] => {
  const rows = new Map<string, Read & { purposes: string[] }>();
  for (const read of reads) {
    const day = Math.floor((read.at + 8 * 3_600_000) / 86_400_000);
    const key = `${read.reader_id}:${read.reader_role}:${day}`;
    const row = rows.get(key);
    if (!row) {
      rows.set(key, { ...read, purposes: [read.purpose] });
      continue;
    }
    row.fields = [...new Set([...row.fields, ...read.fields])];
    if (!row.purposes.includes(read.purpose)) row.purposes.push(read.purpose);
    row.reason = [...new Set([row.reason, read.reason].filter((r): r is string => r !== null))].join('；') || null;
    row.at = Math.min(row.at, read.at);
  }
  return [...rows.values()];
};

type FirstPage = Pick<EduAccessLog, 'applications' | 'exports'>;

/**
 * The reads a page at a time (each page after the last one's `next_cursor`); the applications and the
 * copies made come whole with the first page.
 */
const useRecordReads = (load: (cursor: number | undefined) => Promise<EduAccessLog>) => {
  const cursor = useRef<number | undefined>(undefined);
  const [first, setFirst] = useState<FirstPage | undefined>();
  const reads = usePages(async (last: Read | undefined) => {
    const page = await load(last === undefined ? undefined : cursor.current);
    cursor.current = page.next_cursor;
    if (last === undefined) setFirst({ applications: page.applications, exports: page.exports });
    return { items: page.reads, more: page.next_cursor !== undefined };
  });
  return { reads, first };
};

const RecordReadsList = ({
  reads,
  first,
  titleId,
}: {
  reads: PagesResult<Read>;
  first: FirstPage | undefined;
  titleId: string;
}) => {
  const { t, locale } = useI18n();
  const words = useWords();
  const when = (ms: number) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  if (first === undefined) return null;
  const log = { reads: reads.items, ...first };
  const empty = log.reads.length === 0 && log.applications.length === 0 && log.exports.length === 0;
  if (empty) return <p className="muted">{t('recordReads.none')}</p>;
  return (
    <>
      <ul className="record-reads" aria-labelledby={titleId}>
        {byReaderAndDay(log.reads).map((read) => (
          <li key={`read-${read.at}-${read.reader_id}-${read.reader_role}`} data-testid="record-read">
            <strong>
              {words('recordReads.role', read.reader_role)}{' '}
              {read.reader_relation
                ? shownGuardianName(read.reader_name, read.reader_relation, t)
                : read.reader_staff_name || shownNickname(read.reader_name, t) || `#${read.reader_id}`}
              {read.reader_school_name ? ` · ${read.reader_school_name}` : ''}
            </strong>{' '}
            <span className="muted">{when(read.at)}</span>
            <br />
            {t('recordReads.saw', {
              fields: read.fields.map((f) => words('recordReads.field', f)).join(t('recordReads.comma')),
            })}
            <br />
            {t('recordReads.why', {
              why: read.purposes.map((p) => words('recordReads.purpose', p)).join(t('recordReads.comma')),
            })}
            {read.reason ? (
              <>
                <br />
                {t('recordReads.reason', { reason: read.reason })}
              </>
            ) : null}
          </li>
        ))}
        {log.applications.map((app) => (
          <li key={`app-${app.client_id}`} data-testid="record-app">
            <strong>{t('recordReads.application', { name: app.name })}</strong>{' '}
            <span className="muted">{when(app.at)}</span>
          </li>
        ))}
        {log.exports.map((made) => (
          <li key={`export-${made.at}-${made.requested_by}-${made.status}`} data-testid="record-export">
            <strong>{t('recordReads.export')}</strong> <span className="muted">{when(made.at)}</span>{' '}
            {words('recordReads.status', made.status)}
          </li>
        ))}
      </ul>
      {reads.done || reads.error ? null : (
        <button
          type="button"
          className="button secondary"
          aria-busy={reads.loading}
          disabled={reads.loading}
          onClick={reads.more}
        >
          {t('recordReads.more')}
        </button>
      )}
    </>
  );
};

/** The user's own record: on the privacy page. */
export const OwnRecordReads = () => {
  const { t } = useI18n();
  const { reads, first } = useRecordReads((cursor) => eduCall(eduTable.eduAccessLog, { query: { cursor } }));
  const loadError = useLoadError(reads);
  return (
    <section className="account-section" aria-labelledby="record-reads">
      <h2 id="record-reads">{t('recordReads.title')}</h2>
      <p>{t('recordReads.intro')}</p>
      <FormError {...loadError} />
      <RecordReadsList reads={reads} first={first} titleId="record-reads" />
    </section>
  );
};

/** A child's record, for a linked guardian (opened from the family part). */
export const ChildRecordReads = ({ childId, name }: { childId: number; name: string }) => {
  const { t } = useI18n();
  const { reads, first } = useRecordReads((cursor) =>
    eduCall(rightsUserTable.childAccessLog, { params: { id: childId }, query: { cursor } }),
  );
  const loadError = useLoadError(reads);
  const titleId = `record-reads-${childId}`;
  return (
    <div className="record-reads-child">
      <h3 id={titleId}>{t('recordReads.childTitle', { name })}</h3>
      <FormError {...loadError} />
      <RecordReadsList reads={reads} first={first} titleId={titleId} />
    </div>
  );
};

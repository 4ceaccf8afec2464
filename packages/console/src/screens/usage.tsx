/**
 * Usage: events over time by key for a chosen range (chart and table), top events, unique users and
 * devices, and duration percentiles of the timed events among the top keys.
 */
import type { AnswerOf } from '@edupass/protocol';
import { durationStats, eventCounts, uniqueCounts } from '../api/usage-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Dashboard } from '../ui/dashboard.tsx';
import { Card, DataTable } from '../ui/table.tsx';
import { TimeChart } from '../ui/time-chart.tsx';
import type { WindowChoice } from '../ui/window-picker.tsx';

const CHART_KEYS = 6;
const DURATION_KEYS = 10;

const loadUsage = async ({ window, bucket, key }: WindowChoice) => {
  const [counts, uniques] = await Promise.all([eventCounts(window, bucket, key), uniqueCounts(window)]);
  const totals = new Map<string, number>();
  for (const row of counts) totals.set(row.key, (totals.get(row.key) ?? 0) + row.count);
  const top = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const durations = (await Promise.all(top.slice(0, DURATION_KEYS).map(([k]) => durationStats(window, k)))).filter(
    (d): d is AnswerOf<'usageDurations'> => d.count > 0,
  );
  return { counts, uniques, top, durations, total: top.reduce((sum, [, n]) => sum + n, 0) };
};

export const UsageScreen = () => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const ms = (v: number | null) => (v === null ? '—' : i18n.number(v));

  return (
    <Dashboard title={t('usage.title')} withKey load={loadUsage}>
      {(data, choice) => (
        <>
          <Card id="usage-uniques" title={t('usage.uniques')}>
            <dl className="console-stats">
              <div>
                <dt>{t('usage.events')}</dt>
                <dd>{i18n.number(data.uniques.events)}</dd>
              </div>
              <div>
                <dt>{t('usage.devices')}</dt>
                <dd>{i18n.number(data.uniques.devices)}</dd>
              </div>
              <div>
                <dt>{t('usage.users')}</dt>
                <dd>{i18n.number(data.uniques.users)}</dd>
              </div>
            </dl>
          </Card>
          {data.top.length === 0 ? (
            <p role="status">{t('usage.none')}</p>
          ) : (
            <>
              <TimeChart
                period={choice.window}
                title={t('usage.overTime')}
                description={t('usage.chartLabel', { bucket: t(`bucket.${choice.bucket}`) })}
                rows={data.counts}
                seriesOf={(r) => r.key}
                bucketOf={(r) => r.bucket}
                amountOf={(r) => r.count}
                order={data.top.slice(0, CHART_KEYS).map(([k]) => k)}
              />
              <Card id="usage-top" title={t('usage.top')}>
                <DataTable
                  rows={data.top.slice(0, 20)}
                  rowKey={([key]) => key}
                  columns={[
                    { head: t('usage.key'), rowHeader: true, cell: ([key]) => key },
                    { head: t('usage.count'), cell: ([, count]) => i18n.number(count) },
                    {
                      head: t('usage.share'),
                      cell: ([, count]) => (
                        <>
                          <span
                            className="console-meter"
                            style={{ width: `${(100 * count) / data.total}%` }}
                            aria-hidden="true"
                          />
                          {i18n.number((100 * count) / data.total)}%
                        </>
                      ),
                    },
                  ]}
                />
              </Card>
            </>
          )}
          <Card id="usage-durations" title={t('usage.durations')}>
            <DataTable
              empty={t('usage.noDurations')}
              rows={data.durations}
              rowKey={(d) => d.key}
              columns={[
                { head: t('usage.key'), rowHeader: true, cell: (d) => d.key },
                { head: t('usage.samples'), cell: (d) => i18n.number(d.count) },
                { head: 'p50', cell: (d) => ms(d.p50) },
                { head: 'p75', cell: (d) => ms(d.p75) },
                { head: 'p90', cell: (d) => ms(d.p90) },
                { head: 'p99', cell: (d) => ms(d.p99) },
              ]}
            />
          </Card>
        </>
      )}
    </Dashboard>
  );
};

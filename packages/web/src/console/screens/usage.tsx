/**
 * Usage: events over time by key for a chosen range (chart and table), top events, unique users and
 * devices, and duration percentiles of the timed events among the top keys.
 */
import { useState } from 'react';
import { type DurationStats, durationStats, eventCounts, uniqueCounts } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Failure, Loading } from '../ui/status.tsx';
import { pivot, TimeChart } from '../ui/time-chart.tsx';
import { useAsync } from '../ui/use-async.ts';
import { DEFAULT_PRODUCT, type WindowChoice, WindowPicker, windowFor } from '../ui/window-picker.tsx';

const CHART_KEYS = 6;
const DURATION_KEYS = 10;

const loadUsage = async ({ window, bucket, key }: WindowChoice) => {
  const [counts, uniques] = await Promise.all([eventCounts(window, bucket, key), uniqueCounts(window)]);
  const totals = new Map<string, number>();
  for (const row of counts) totals.set(row.key, (totals.get(row.key) ?? 0) + row.count);
  const top = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const durations = (await Promise.all(top.slice(0, DURATION_KEYS).map(([k]) => durationStats(window, k)))).filter(
    (d): d is DurationStats => d.count > 0,
  );
  return { counts, uniques, top, durations, total: top.reduce((sum, [, n]) => sum + n, 0) };
};

export const UsageScreen = () => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const [choice, setChoice] = useState<WindowChoice>(() => ({ ...windowFor(DEFAULT_PRODUCT, '7d'), key: '' }));
  const usage = useAsync(() => loadUsage(choice), [choice]);
  const data = usage.data;
  const chartKeys = data?.top.slice(0, CHART_KEYS).map(([k]) => k) ?? [];
  const chart = data
    ? pivot(
        data.counts,
        (r) => r.key,
        (r) => r.bucket,
        (r) => r.count,
        chartKeys,
      )
    : { xs: [], series: [] };
  const bucketName = t(`bucket.${choice.bucket}`);
  const ms = (v: number | null) => (v === null ? '—' : i18n.number(v));

  return (
    <>
      <h1>{t('usage.title')}</h1>
      <WindowPicker withKey onApply={setChoice} />
      {usage.status === 'failed' ? <Failure error={usage.error} retry={usage.reload} /> : null}
      {!data ? (
        usage.status === 'loading' ? (
          <Loading />
        ) : null
      ) : (
        <div className="console-dashboard" aria-busy={usage.status === 'loading'}>
          <section className="console-card" aria-labelledby="usage-uniques">
            <h2 id="usage-uniques">{t('usage.uniques')}</h2>
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
          </section>
          {data.top.length === 0 ? (
            <p role="status">{t('usage.none')}</p>
          ) : (
            <>
              <TimeChart
                title={t('usage.overTime')}
                description={t('usage.chartLabel', { bucket: bucketName })}
                xs={chart.xs}
                series={chart.series}
                timeHeader={t('usage.time')}
              />
              <section className="console-card" aria-labelledby="usage-top">
                <h2 id="usage-top">{t('usage.top')}</h2>
                <table className="console-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('usage.key')}</th>
                      <th scope="col">{t('usage.count')}</th>
                      <th scope="col">{t('usage.share')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.top.slice(0, 20).map(([key, count]) => (
                      <tr key={key}>
                        <th scope="row">{key}</th>
                        <td>{i18n.number(count)}</td>
                        <td>
                          <span
                            className="console-meter"
                            style={{ width: `${(100 * count) / data.total}%` }}
                            aria-hidden="true"
                          />
                          {i18n.number((100 * count) / data.total)}%
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            </>
          )}
          <section className="console-card" aria-labelledby="usage-durations">
            <h2 id="usage-durations">{t('usage.durations')}</h2>
            {data.durations.length === 0 ? (
              <p className="console-muted">{t('usage.noDurations')}</p>
            ) : (
              <table className="console-table">
                <thead>
                  <tr>
                    <th scope="col">{t('usage.key')}</th>
                    <th scope="col">{t('usage.samples')}</th>
                    <th scope="col">p50</th>
                    <th scope="col">p75</th>
                    <th scope="col">p90</th>
                    <th scope="col">p99</th>
                  </tr>
                </thead>
                <tbody>
                  {data.durations.map((d) => (
                    <tr key={d.key}>
                      <th scope="row">{d.key}</th>
                      <td>{i18n.number(d.count)}</td>
                      <td>{ms(d.p50)}</td>
                      <td>{ms(d.p75)}</td>
                      <td>{ms(d.p90)}</td>
                      <td>{ms(d.p99)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
    </>
  );
};

/**
 * Monitoring: JS errors grouped by message (count, pages, last seen); API failure rate by path with
 * the no-response codes 601–604, business errors and other HTTP codes; web-vitals p75 over time.
 */
import { type AnswerOf, MONITOR } from '@edupass/protocol';
import { apiCodes, apiFailureRates, errorGroups, vitalsOverall, vitalsSeries } from '../api/usage-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Dashboard } from '../ui/dashboard.tsx';
import { Card, type Column, DataTable } from '../ui/table.tsx';
import { TimeChart } from '../ui/time-chart.tsx';
import type { WindowChoice } from '../ui/window-picker.tsx';

/** Millisecond vitals share the chart; CLS (unitless) is in the table. */
const CHART_VITALS = ['LCP', 'INP', 'FCP', 'TTFB'];
/** The codes the SDK reports when no answer came, each with its column. */
const NO_RESPONSE = [
  { code: MONITOR.codes.network, name: 'monitor.network' },
  { code: MONITOR.codes.timeout, name: 'monitor.timeout' },
  { code: MONITOR.codes.abort, name: 'monitor.abort' },
  { code: MONITOR.codes.fetch, name: 'monitor.fetch' },
] as const;
const NO_RESPONSE_CODES: readonly number[] = NO_RESPONSE.map((c) => c.code);

const loadMonitor = async ({ window, bucket }: WindowChoice) => {
  const [errors, rates, codes, overall, series] = await Promise.all([
    errorGroups(window),
    apiFailureRates(window),
    apiCodes(window),
    vitalsOverall(window),
    vitalsSeries(window, bucket),
  ]);
  const codesByPath = new Map<string, Map<number, number>>();
  for (const row of codes) {
    const byCode = codesByPath.get(row.path) ?? new Map<number, number>();
    byCode.set(row.code, (byCode.get(row.code) ?? 0) + row.count);
    codesByPath.set(row.path, byCode);
  }
  return { errors, rates, codesByPath, overall, series };
};

/** A path's other HTTP codes, most frequent first: `500 ×3, 404 ×1`. */
const otherCodes = (codes: Map<number, number> | undefined) =>
  [...(codes ?? [])]
    .filter(([code]) => !NO_RESPONSE_CODES.includes(code))
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ');

export const MonitorScreen = () => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const percent = (rate: number) => `${i18n.number(100 * rate)}%`;

  return (
    <Dashboard title={t('monitor.title')} withKey={false} load={loadMonitor}>
      {(data, choice) => (
        <>
          <Card id="monitor-errors" title={t('monitor.errors')}>
            <DataTable
              wrap
              empty={t('monitor.noErrors')}
              rows={data.errors}
              rowKey={(e) => e.message}
              columns={[
                {
                  head: t('monitor.message'),
                  rowHeader: true,
                  cellProps: () => ({ className: 'console-message' }),
                  cell: (e) => e.message,
                },
                { head: t('monitor.count'), cell: (e) => i18n.number(e.count) },
                { head: t('monitor.pages'), cell: (e) => i18n.number(e.pages) },
                { head: t('monitor.lastSeen'), cell: (e) => i18n.time(e.last_seen) },
              ]}
            />
          </Card>
          <Card id="monitor-api" title={t('monitor.api')}>
            <DataTable
              wrap
              empty={t('monitor.noApi')}
              rows={data.rates}
              rowKey={(r) => r.path}
              columns={[
                {
                  head: t('monitor.path'),
                  rowHeader: true,
                  cellProps: () => ({ className: 'console-message' }),
                  cell: (r) => r.path,
                },
                { head: t('monitor.calls'), cell: (r) => i18n.number(r.estimated_calls) },
                { head: t('monitor.failures'), cell: (r) => i18n.number(r.failures) },
                {
                  head: t('monitor.rate'),
                  cellProps: (r) => ({ className: r.failure_rate >= 0.05 ? 'console-danger' : undefined }),
                  cell: (r) => percent(r.failure_rate),
                },
                ...NO_RESPONSE.map(
                  ({ code, name }): Column<AnswerOf<'monitorApi'>[number]> => ({
                    head: t(name),
                    cell: (r) => i18n.number(data.codesByPath.get(r.path)?.get(code) ?? 0),
                  }),
                ),
                { head: t('monitor.business'), cell: (r) => i18n.number(r.business_errors) },
                { head: t('monitor.http'), cell: (r) => otherCodes(data.codesByPath.get(r.path)) || '—' },
              ]}
            />
          </Card>
          {data.series.length === 0 ? (
            <Card id="monitor-vitals" title={t('monitor.vitals')}>
              <p className="console-muted">{t('monitor.noVitals')}</p>
            </Card>
          ) : (
            <TimeChart
              period={choice.window}
              title={t('monitor.vitals')}
              description={t('monitor.vitalsChart', { bucket: t(`bucket.${choice.bucket}`) })}
              rows={data.series}
              seriesOf={(r) => r.name}
              bucketOf={(r) => r.bucket}
              amountOf={(r) => r.p75}
              order={CHART_VITALS}
              unit="ms"
            />
          )}
          <Card id="monitor-overall" title={t('monitor.overall')}>
            <DataTable
              rows={data.overall}
              rowKey={(v) => v.name}
              columns={[
                { head: t('monitor.vital'), rowHeader: true, cell: (v) => v.name },
                {
                  head: t('monitor.p75'),
                  cell: (v) => (v.p75 === null ? '—' : `${i18n.number(v.p75)}${v.name === 'CLS' ? '' : ' ms'}`),
                },
                { head: t('monitor.samples'), cell: (v) => i18n.number(v.count) },
              ]}
            />
          </Card>
        </>
      )}
    </Dashboard>
  );
};

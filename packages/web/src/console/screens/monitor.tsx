/**
 * Monitoring: JS errors grouped by message (count, pages, last seen); API failure rate by path with
 * the no-response codes 601–604, business errors and other HTTP codes; web-vitals p75 over time.
 */
import { MONITOR } from '@edupass/protocol';
import { useState } from 'react';
import { apiCodes, apiFailureRates, errorGroups, vitalsOverall, vitalsSeries } from '../api/admin-api.ts';
import { useConsoleText } from '../i18n/i18n.ts';
import { Failure, Loading } from '../ui/status.tsx';
import { pivot, TimeChart } from '../ui/time-chart.tsx';
import { useAsync } from '../ui/use-async.ts';
import { DEFAULT_PRODUCT, type WindowChoice, WindowPicker, windowFor } from '../ui/window-picker.tsx';

/** Millisecond vitals share the chart; CLS (unitless) is in the table. */
const CHART_VITALS = ['LCP', 'INP', 'FCP', 'TTFB'];
const NO_RESPONSE = [MONITOR.codes.network, MONITOR.codes.timeout, MONITOR.codes.abort, MONITOR.codes.fetch] as const;
const CODE_KEYS = ['monitor.network', 'monitor.timeout', 'monitor.abort', 'monitor.fetch'] as const;

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

export const MonitorScreen = () => {
  const i18n = useConsoleText();
  const { t } = i18n;
  const [choice, setChoice] = useState<WindowChoice>(() => ({ ...windowFor(DEFAULT_PRODUCT, '7d'), key: '' }));
  const monitor = useAsync(() => loadMonitor(choice), [choice]);
  const data = monitor.data;
  const chart = data
    ? pivot(
        data.series,
        (r) => r.name,
        (r) => r.bucket,
        (r) => r.p75,
        CHART_VITALS,
      )
    : { xs: [], series: [] };
  const percent = (rate: number) => `${i18n.number(100 * rate)}%`;

  return (
    <>
      <h1>{t('monitor.title')}</h1>
      <WindowPicker withKey={false} onApply={setChoice} />
      {monitor.status === 'failed' ? <Failure error={monitor.error} retry={monitor.reload} /> : null}
      {!data ? (
        monitor.status === 'loading' ? (
          <Loading />
        ) : null
      ) : (
        <div className="console-dashboard" aria-busy={monitor.status === 'loading'}>
          <section className="console-card" aria-labelledby="monitor-errors">
            <h2 id="monitor-errors">{t('monitor.errors')}</h2>
            {data.errors.length === 0 ? (
              <p className="console-muted">{t('monitor.noErrors')}</p>
            ) : (
              <div className="console-table-wrap">
                <table className="console-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('monitor.message')}</th>
                      <th scope="col">{t('monitor.count')}</th>
                      <th scope="col">{t('monitor.pages')}</th>
                      <th scope="col">{t('monitor.lastSeen')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.errors.map((e) => (
                      <tr key={e.message}>
                        <th scope="row" className="console-message">
                          {e.message}
                        </th>
                        <td>{i18n.number(e.count)}</td>
                        <td>{i18n.number(e.pages)}</td>
                        <td>{i18n.time(e.last_seen)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section className="console-card" aria-labelledby="monitor-api">
            <h2 id="monitor-api">{t('monitor.api')}</h2>
            {data.rates.length === 0 ? (
              <p className="console-muted">{t('monitor.noApi')}</p>
            ) : (
              <div className="console-table-wrap">
                <table className="console-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('monitor.path')}</th>
                      <th scope="col">{t('monitor.calls')}</th>
                      <th scope="col">{t('monitor.failures')}</th>
                      <th scope="col">{t('monitor.rate')}</th>
                      {CODE_KEYS.map((key) => (
                        <th scope="col" key={key}>
                          {t(key)}
                        </th>
                      ))}
                      <th scope="col">{t('monitor.business')}</th>
                      <th scope="col">{t('monitor.http')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rates.map((r) => {
                      const codes = data.codesByPath.get(r.path) ?? new Map<number, number>();
                      const others = [...codes]
                        .filter(([code]) => !(NO_RESPONSE as readonly number[]).includes(code))
                        .sort((a, b) => b[1] - a[1])
                        .map(([code, n]) => `${code} ×${n}`)
                        .join(', ');
                      return (
                        <tr key={r.path}>
                          <th scope="row" className="console-message">
                            {r.path}
                          </th>
                          <td>{i18n.number(r.estimatedCalls)}</td>
                          <td>{i18n.number(r.failures)}</td>
                          <td className={r.failureRate >= 0.05 ? 'console-danger' : undefined}>
                            {percent(r.failureRate)}
                          </td>
                          {NO_RESPONSE.map((code) => (
                            <td key={code}>{i18n.number(codes.get(code) ?? 0)}</td>
                          ))}
                          <td>{i18n.number(r.businessErrors)}</td>
                          <td>{others || '—'}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          {chart.xs.length === 0 ? (
            <section className="console-card" aria-labelledby="monitor-vitals">
              <h2 id="monitor-vitals">{t('monitor.vitals')}</h2>
              <p className="console-muted">{t('monitor.noVitals')}</p>
            </section>
          ) : (
            <TimeChart
              title={t('monitor.vitals')}
              description={t('monitor.vitalsChart', { bucket: t(`bucket.${choice.bucket}`) })}
              xs={chart.xs}
              series={chart.series}
              unit="ms"
              timeHeader={t('usage.time')}
            />
          )}
          <section className="console-card" aria-labelledby="monitor-overall">
            <h2 id="monitor-overall">{t('monitor.overall')}</h2>
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{t('monitor.vital')}</th>
                  <th scope="col">{t('monitor.p75')}</th>
                  <th scope="col">{t('monitor.samples')}</th>
                </tr>
              </thead>
              <tbody>
                {data.overall.map((v) => (
                  <tr key={v.name}>
                    <th scope="row">{v.name}</th>
                    <td>{v.p75 === null ? '—' : `${i18n.number(v.p75)}${v.name === 'CLS' ? '' : ' ms'}`}</td>
                    <td>{i18n.number(v.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      )}
    </>
  );
};

/**
 * A uPlot line chart over time with a table view beside it (the table is what screen readers and
 * keyboard users read; the canvas carries an aria-label). Series share one x axis of bucket starts.
 */
import { useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useConsoleText } from '../i18n/i18n.ts';
import { type Column, DataTable } from './table.tsx';
import { type Period, periodRange, tickLabels, tickSpacings } from './time-axis.ts';

export interface TimeSeries {
  label: string;
  /** One value per x, null where there is none. */
  values: (number | null)[];
}

interface ChartProps {
  title: string;
  /** What the chart shows, for assistive technology. */
  description: string;
  /** Bucket starts, unix ms. */
  xs: number[];
  series: TimeSeries[];
  unit?: string;
  timeHeader: string;
  /** The period the operator chose: the x axis spans it. */
  period: Period;
  locale: string;
}

/** Rows of (series, bucket, value), drawn as one line per name of `order`. */
export interface TimeChartProps<R> extends Omit<ChartProps, 'xs' | 'series' | 'timeHeader' | 'locale'> {
  rows: R[];
  seriesOf(row: R): string;
  bucketOf(row: R): number;
  amountOf(row: R): number;
  order: string[];
}

/** Colour-blind-safe (Okabe–Ito), each ≥ 3:1 against white. */
const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#7A6A00', '#56597a', '#A6341B', '#1b6e8f'];

const PlotCanvas = ({ xs, series, description, unit, timeHeader, period, locale }: Omit<ChartProps, 'title'>) => {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const width = () => Math.max(320, Math.min(element.clientWidth || 720, 1100));
    const spacings = tickSpacings(period);
    const plot = new uPlot(
      {
        width: width(),
        height: 280,
        scales: { x: { time: true, range: () => periodRange(period) } },
        axes: [
          {
            stroke: '#333',
            ...(spacings === undefined ? {} : { incrs: spacings }),
            values: (_, ticks) => {
              const labels = tickLabels(locale, period, ticks);
              // The labels drawn, on the element (the canvas holds them as pixels): for the tests.
              element.dataset.xTicks = labels.join('|');
              return labels;
            },
          },
          { stroke: '#333', label: unit, size: 60 },
        ],
        legend: { show: true },
        hooks: {
          // The drawn x range, on the element: what the axis spans, for people's tools and the tests.
          setScale: [
            (u, key) => {
              if (key === 'x') element.dataset.xRange = `${u.scales.x?.min},${u.scales.x?.max}`;
            },
          ],
        },
        series: [
          { label: timeHeader },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: SERIES_COLOURS[i % SERIES_COLOURS.length],
            width: 2,
            spanGaps: true,
            points: { show: xs.length < 60 },
          })),
        ],
      },
      [xs.map((x) => x / 1000), ...series.map((s) => s.values)] as uPlot.AlignedData,
      element,
    );
    const resize = () => plot.setSize({ width: width(), height: 280 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [xs, series, unit, timeHeader, period, locale]);
  return <div ref={holder} className="console-chart" role="img" aria-label={description} />;
};

export const TimeChart = <R,>({
  title,
  description,
  unit,
  rows,
  seriesOf,
  bucketOf,
  amountOf,
  order,
  period,
}: TimeChartProps<R>) => {
  const i18n = useConsoleText();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const headingId = useId();
  const timeHeader = i18n.t('usage.time');
  const { xs, series } = pivot(rows, seriesOf, bucketOf, amountOf, order);
  return (
    <section className="console-card" aria-labelledby={headingId}>
      <div className="console-card-head">
        <h2 id={headingId}>{title}</h2>
        {/* biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons, not a form fieldset */}
        <div className="console-toggle" role="group" aria-label={i18n.t('view.label', { name: title })}>
          {(['chart', 'table'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              className="console-button console-button-quiet"
              aria-pressed={view === kind}
              onClick={() => setView(kind)}
            >
              {i18n.t(kind === 'chart' ? 'view.chart' : 'view.table')}
            </button>
          ))}
        </div>
      </div>
      {view === 'chart' ? (
        <PlotCanvas
          xs={xs}
          series={series}
          description={description}
          timeHeader={timeHeader}
          period={period}
          locale={i18n.locale}
          {...(unit ? { unit } : {})}
        />
      ) : (
        <DataTable
          wrap
          caption={title}
          rows={xs.map((x, row) => ({ x, row }))}
          rowKey={({ x }) => x}
          columns={[
            { head: timeHeader, rowHeader: true, cell: ({ x }) => i18n.time(x) },
            ...series.map(
              (s): Column<{ x: number; row: number }> => ({
                head: s.label,
                cell: ({ row }) => {
                  const value = s.values[row];
                  return value === null || value === undefined ? '—' : i18n.number(value);
                },
              }),
            ),
          ]}
        />
      )}
    </section>
  );
};

/** Pivots rows of (series, bucket, value) into aligned x values and series. */
const pivot = <R,>(
  rows: R[],
  seriesOf: (row: R) => string,
  bucketOf: (row: R) => number,
  amountOf: (row: R) => number,
  order: string[],
): { xs: number[]; series: TimeSeries[] } => {
  const xs = [...new Set(rows.map(bucketOf))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const series = order.map((label) => ({ label, values: xs.map((): number | null => null) }));
  const byLabel = new Map(series.map((s) => [s.label, s]));
  for (const row of rows) {
    const target = byLabel.get(seriesOf(row));
    const i = index.get(bucketOf(row));
    if (target && i !== undefined) target.values[i] = amountOf(row);
  }
  return { xs, series };
};

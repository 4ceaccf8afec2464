/**
 * The x axis of the console's time charts: the scale spans the period the operator chose (data in one
 * bucket still draws over that period, not over an axis uPlot invents around a single point), and tick
 * labels are written in the console's language with a 24-hour clock where that language uses one.
 */
import { DAY_MS, DAY_SECONDS } from '@edupass/protocol';

export interface Period {
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
}

/** The x scale's range in uPlot's seconds: exactly the chosen period. */
export const periodRange = ({ from, to }: Period): [number, number] => [from / 1000, to / 1000];

const isShort = (period: Period) => period.to - period.from <= DAY_MS;

/** Whole days, and the spans of weeks to a year, in uPlot's seconds. */
const DAY_SPACINGS = [1, 2, 3, 7, 14, 30, 61, 91, 182, 365].map((days) => days * DAY_SECONDS);

/**
 * The spacings uPlot may choose its ticks from (`incrs`): for a period longer than a day, whole days
 * and more, as its labels are dates (with uPlot's own, a week on a wide chart got a tick every 12
 * hours and each date twice); for a day or shorter, uPlot's own, down to minutes.
 */
export const tickSpacings = (period: Period): number[] | undefined => (isShort(period) ? undefined : DAY_SPACINGS);

/**
 * Tick labels for ticks at unix seconds `ticks`: the time of day when the period is a day or shorter,
 * the date otherwise, and both where a tick falls on a new day inside a short period.
 */
export const tickLabels = (locale: string, period: Period, ticks: number[]): string[] => {
  const short = isShort(period);
  const date = new Intl.DateTimeFormat(locale, { month: 'numeric', day: 'numeric' });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  let lastDay = '';
  return ticks.map((seconds) => {
    const at = new Date(seconds * 1000);
    const day = date.format(at);
    if (!short) return day;
    const label = day === lastDay ? time.format(at) : `${day} ${time.format(at)}`;
    lastDay = day;
    return label;
  });
};

import { DAY_MS, HOUR_MS } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import { periodRange, tickLabels, tickSpacings } from './time-axis.ts';

const to = Date.UTC(2026, 10, 22, 16); // a whole hour
const day: { from: number; to: number } = { from: to - DAY_MS, to };
const week = { from: to - 7 * DAY_MS, to };
const hourly = (period: { from: number }, n: number) =>
  Array.from({ length: n }, (_, i) => (period.from + i * 6 * HOUR_MS) / 1000);

describe('the time axis', () => {
  it('spans exactly the chosen period, whatever the data covers', () => {
    expect(periodRange(week)).toEqual([week.from / 1000, week.to / 1000]);
  });

  it('labels a day in a 24-hour clock in both languages (never 12am/12pm)', () => {
    for (const locale of ['zh-CN', 'en']) {
      const labels = tickLabels(locale, day, hourly(day, 4));
      expect(labels.join(' ')).not.toMatch(/am|pm|上午|下午/i);
      expect(labels.some((l) => /\d{2}:00/.test(l))).toBe(true);
      // The day is written once at the start (and again when the date changes), not on every tick.
      expect(labels.filter((l) => l.includes(' ')).length).toBeLessThan(labels.length);
    }
  });

  it('ticks a period of days at whole days, so no date is written twice; a day by uPlot’s own spacing', () => {
    const spacings = tickSpacings(week) ?? [];
    expect(spacings.length).toBeGreaterThan(0);
    for (const seconds of spacings) expect(seconds % (DAY_MS / 1000)).toBe(0);
    expect(tickSpacings(day)).toBeUndefined();
  });

  it('labels a week by dates in the console’s language', () => {
    const labels = tickLabels('zh-CN', week, [week.from / 1000]);
    expect(labels[0]).toMatch(/^\d{1,2}\/\d{1,2}$/);
    expect(tickLabels('en', week, [week.from / 1000])[0]).toMatch(/^\d{1,2}\/\d{1,2}$/);
  });
});

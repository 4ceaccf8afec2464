import { describe, expect, it } from 'vitest';
import { isSubmitKey, PAGE_STEP, positionForKey } from './keyboard.ts';
import { createTrajectory, MAX_SAMPLES } from './trajectory.ts';

describe('the slider keyboard', () => {
  it('moves by one with arrows, by a page with PageUp/PageDown, and jumps with Home/End, within bounds', () => {
    expect(positionForKey('ArrowRight', 10, 240)).toBe(11);
    expect(positionForKey('ArrowUp', 10, 240)).toBe(11);
    expect(positionForKey('ArrowLeft', 10, 240)).toBe(9);
    expect(positionForKey('ArrowDown', 0, 240)).toBe(0);
    expect(positionForKey('PageUp', 235, 240)).toBe(240);
    expect(positionForKey('PageDown', 5, 240)).toBe(0);
    expect(positionForKey('PageUp', 0, 240)).toBe(PAGE_STEP);
    expect(positionForKey('Home', 120, 240)).toBe(0);
    expect(positionForKey('End', 0, 240)).toBe(240);
    expect(positionForKey('a', 3, 240)).toBeUndefined();
    expect(isSubmitKey('Enter')).toBe(true);
    expect(isSubmitKey(' ')).toBe(true);
    expect(isSubmitKey('Tab')).toBe(false);
  });
});

describe('the drag trajectory', () => {
  it('records samples relative to the start and drops exact repeats', () => {
    const trajectory = createTrajectory();
    trajectory.start(100, 50, 1000);
    trajectory.add(103, 51, 1016);
    trajectory.add(103, 51, 1016);
    trajectory.add(110.26, 49, 1033);
    expect(trajectory.samples()).toEqual([
      [0, 0, 0],
      [3, 1, 16],
      [10.3, -1, 33],
    ]);
  });

  it('ignores moves before the drag starts', () => {
    const trajectory = createTrajectory();
    trajectory.add(1, 1, 1);
    expect(trajectory.samples()).toEqual([]);
  });

  it('keeps at most MAX_SAMPLES, always ending at the latest point', () => {
    const trajectory = createTrajectory();
    trajectory.start(0, 0, 0);
    for (let i = 1; i <= MAX_SAMPLES * 2; i++) trajectory.add(i, 0, i);
    const samples = trajectory.samples();
    expect(samples).toHaveLength(MAX_SAMPLES);
    expect(samples.at(-1)).toEqual([MAX_SAMPLES * 2, 0, MAX_SAMPLES * 2]);
  });
});

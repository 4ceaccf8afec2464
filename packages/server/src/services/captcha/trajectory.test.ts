import { humanDrag, straightConstantDrag } from '@edupass/test-kit/slide-drags';
import { describe, expect, it } from 'vitest';
import { judgeSlide } from './trajectory.ts';

const judge = (trajectory: unknown, x: number, answerX = 150, input: 'pointer' | 'keyboard' = 'pointer') =>
  judgeSlide({ answerX, x, trajectory, input, tolerance: 4 });

describe('slide answers', () => {
  it('a hand-like drag to the gap passes', () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(judge(humanDrag(150, seed), 150)).toEqual({ pass: true });
  });

  it('a drop beside the gap fails on offset', () => {
    expect(judge(humanDrag(160), 160)).toEqual({ pass: false, reason: 'offset' });
  });

  it('a straight constant-speed drag fails', () => {
    expect(judge(straightConstantDrag(150), 150)).toMatchObject({ pass: false, reason: 'straight' });
    const wobbly = straightConstantDrag(150).map(([x, , t], i) => [x, i % 2, t]);
    expect(judge(wobbly, 150)).toEqual({ pass: false, reason: 'constant-speed' });
  });

  it('a jump straight to the answer fails as a teleport', () => {
    const drag = [
      [0, 0, 0],
      [1, 1, 100],
      [2, 0, 200],
      [3, 1, 300],
      [4, 2, 400],
      [5, 1, 500],
      [6, 0, 600],
      [150, 1, 650],
    ];
    expect(judge(drag, 150)).toEqual({ pass: false, reason: 'teleport' });
  });

  it('a drag too quick or too short fails', () => {
    const quick = humanDrag(150).map(([x, y, t]) => [x, y, Math.round(t / 10)]);
    expect(judge(quick, 150)).toMatchObject({ pass: false });
    expect(
      judge(
        [
          [0, 0, 0],
          [150, 1, 900],
        ],
        150,
      ),
    ).toEqual({ pass: false, reason: 'too-few-samples' });
  });

  it('a claimed drop point the drag never reached fails', () => {
    expect(judge(humanDrag(100), 150)).toEqual({ pass: false, reason: 'mismatch' });
  });

  it('malformed trajectories fail without throwing', () => {
    for (const bad of [
      null,
      'x',
      [[1, 2]],
      [
        [0, 0, 0],
        ['a', 0, 1],
      ],
      Array(500).fill([0, 0, 0]),
    ]) {
      expect(judge(bad, 150)).toEqual({ pass: false, reason: 'malformed' });
    }
  });

  it('keyboard answers step by arrow or page keys over time', () => {
    const keys: [number, number, number][] = [[0, 0, 0]];
    for (let x = 10, t = 120; x <= 150; x += 10, t += 110) keys.push([x, 0, t]);
    expect(judge(keys, 150, 150, 'keyboard')).toEqual({ pass: true });
    expect(
      judge(
        [
          [0, 0, 0],
          [75, 0, 200],
          [150, 0, 400],
        ],
        150,
        150,
        'keyboard',
      ),
    ).toEqual({ pass: false, reason: 'teleport' });
  });
});

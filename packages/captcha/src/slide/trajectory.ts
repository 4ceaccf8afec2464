/** Records a drag as [x, y, t] samples relative to its start; the server judges whether a person made it. */
import type { SlideSample } from '@edupass/protocol';

/** More samples than this add nothing to the judgement and only grow the request. */
export const MAX_SAMPLES = 400;

export interface TrajectoryRecorder {
  start(x: number, y: number, t: number): void;
  add(x: number, y: number, t: number): void;
  samples(): SlideSample[];
}

export const createTrajectory = (): TrajectoryRecorder => {
  let origin: { x: number; y: number; t: number } | undefined;
  let list: SlideSample[] = [];
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    start(x, y, t) {
      origin = { x, y, t };
      list = [[0, 0, 0]];
    },
    add(x, y, t) {
      if (!origin) return;
      const sample: SlideSample = [round(x - origin.x), round(y - origin.y), Math.round(t - origin.t)];
      const last = list[list.length - 1];
      // Keep the last sample when full, so the drop point is never lost.
      if (list.length >= MAX_SAMPLES) list[list.length - 1] = sample;
      else if (!last || last[0] !== sample[0] || last[1] !== sample[1] || last[2] !== sample[2]) list.push(sample);
    },
    samples: () => list.slice(),
  };
};

/** Scripted drags for slide-puzzle tests: one that moves like a hand, and the shapes bots produce. */
import type { SlideSample } from '@edupass/protocol';

/** Ease-in-out to the target with a slight overshoot, hand tremor in y, a frame every ~16 ms. */
export const humanDrag = (targetX: number, seed = 1): SlideSample[] => {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const duration = 700 + Math.round(random() * 500);
  const samples: SlideSample[] = [[0, 0, 0]];
  let t = 0;
  let y = 0;
  while (t < duration) {
    t += 14 + Math.round(random() * 5);
    const p = Math.min(1, t / duration);
    const eased = p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2;
    const overshoot = Math.sin(p * Math.PI) * 3 * (p > 0.7 ? 1 : 0);
    y += (random() - 0.5) * 1.2;
    samples.push([Math.round((eased * targetX + overshoot) * 10) / 10, Math.round(y * 10) / 10, t]);
  }
  samples.push([targetX, Math.round(y * 10) / 10, t + 40]);
  return samples;
};

/** What a naive bot does: a ruler-straight line at one speed. */
export const straightConstantDrag = (targetX: number): SlideSample[] => {
  const samples: SlideSample[] = [];
  const steps = 40;
  for (let i = 0; i <= steps; i++) samples.push([Math.round(((targetX * i) / steps) * 10) / 10, 0, i * 20]);
  return samples;
};

/**
 * Judges a slide answer: the drop point within tolerance, and a drag that a person made. People drag
 * for a while, in many small moves, with their hand wobbling up and down, speeding up and slowing
 * down; scripts jump, or glide in a perfectly straight line at one speed.
 */
import type { SlideInput, SlideSample } from '@edupass/protocol';

export type SlideFailure =
  | 'malformed'
  | 'offset'
  | 'mismatch'
  | 'too-few-samples'
  | 'too-fast'
  | 'too-slow'
  | 'teleport'
  | 'straight'
  | 'constant-speed';

export type Judgement = { pass: true } | { pass: false; reason: SlideFailure };

const LIMITS = {
  maxSamples: 400,
  pointerMinSamples: 8,
  keyboardMinSamples: 3,
  minDurationMs: 250,
  maxDurationMs: 30_000,
  /** Largest move between two samples; pointermove fires every frame, so a person never jumps further. */
  maxStep: 40,
  /** px per ms; a very fast flick is about 3. */
  maxSpeed: 4,
  /** Keyboard answers move by arrow (1) or page (10) steps. */
  maxKeyStep: 10,
  /** Up-and-down range below which a drag is a ruler-straight line. */
  minWobble: 1,
  /** Spread of speeds (coefficient of variation) below which the drag had one constant speed. */
  minSpeedVariation: 0.12,
  /** The last sample must be where the piece was dropped. */
  dropMismatch: 3,
} as const;

/** Reads a trajectory off the wire: an array of [x, y, t] finite numbers, or undefined. */
const parseTrajectory = (value: unknown): SlideSample[] | undefined => {
  if (!Array.isArray(value) || value.length < 2 || value.length > LIMITS.maxSamples) return undefined;
  const samples: SlideSample[] = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length !== 3) return undefined;
    const [x, y, t] = item as unknown[];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof t !== 'number') return undefined;
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(t)) return undefined;
    samples.push([x, y, t]);
  }
  return samples;
};

const fail = (reason: SlideFailure): Judgement => ({ pass: false, reason });

export const judgeSlide = (input: {
  answerX: number;
  x: number;
  trajectory: unknown;
  input: SlideInput;
  tolerance: number;
}): Judgement => {
  const samples = parseTrajectory(input.trajectory);
  if (!samples) return fail('malformed');
  if (Math.abs(input.x - input.answerX) > input.tolerance) return fail('offset');
  const last = samples[samples.length - 1];
  if (!last || Math.abs(last[0] - input.x) > LIMITS.dropMismatch) return fail('mismatch');
  const keyboard = input.input === 'keyboard';
  if (samples.length < (keyboard ? LIMITS.keyboardMinSamples : LIMITS.pointerMinSamples))
    return fail('too-few-samples');
  const duration = last[2] - (samples[0]?.[2] ?? 0);
  if (duration < LIMITS.minDurationMs) return fail('too-fast');
  if (duration > LIMITS.maxDurationMs) return fail('too-slow');

  const speeds: number[] = [];
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 1; i < samples.length; i++) {
    const [x0, , t0] = samples[i - 1] as SlideSample;
    const [x1, y1, t1] = samples[i] as SlideSample;
    const dx = Math.abs(x1 - x0);
    const dt = t1 - t0;
    if (dt < 0) return fail('malformed');
    if (dx > (keyboard ? LIMITS.maxKeyStep : LIMITS.maxStep)) return fail('teleport');
    if (!keyboard && dt === 0 && dx > 4) return fail('teleport');
    if (!keyboard && dt > 0 && dx / dt > LIMITS.maxSpeed) return fail('teleport');
    if (dt > 0 && dx > 0) speeds.push(dx / dt);
    minY = Math.min(minY, y1);
    maxY = Math.max(maxY, y1);
  }
  // Key presses have no vertical wobble and a steady repeat rate; only pointer drags are judged on both.
  if (keyboard) return { pass: true };
  if (maxY - minY < LIMITS.minWobble) return fail('straight');
  const mean = speeds.reduce((sum, v) => sum + v, 0) / Math.max(1, speeds.length);
  const variance = speeds.reduce((sum, v) => sum + (v - mean) ** 2, 0) / Math.max(1, speeds.length);
  if (speeds.length < 3 || Math.sqrt(variance) / mean < LIMITS.minSpeedVariation) return fail('constant-speed');
  return { pass: true };
};

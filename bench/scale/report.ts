/**
 * What the bench makes of its timings: median and p95 per path at each size, large ÷ small beside the
 * 2× target, the large median beside the path's own target; the printed table and the JSON written to
 * bench/results/scale.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

/** Most a path may slow down from the small database to the large one. */
export const RATIO_TARGET = 2;

/** The q-quantile of `values`, interpolated between neighbours (q = 0.5: the median). */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const low = sorted[below] as number;
  return low + ((sorted[Math.ceil(at)] as number) - low) * (at - below);
};

export interface PathResult {
  name: string;
  targetMs?: number;
  small: number[];
  large: number[];
}

const figures = (samples: number[]) => ({ median: quantile(samples, 0.5), p95: quantile(samples, 0.95) });

export const summarise = (result: PathResult) => {
  const small = figures(result.small);
  const large = figures(result.large);
  const ratio = large.median / small.median;
  const withinRatio = ratio <= RATIO_TARGET;
  const withinTarget = result.targetMs === undefined || large.median <= result.targetMs;
  return { ...result, smallFigures: small, largeFigures: large, ratio, withinRatio, withinTarget };
};
export type Summary = ReturnType<typeof summarise>;

const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en'));

export const tableOf = (summaries: Summary[]) => {
  const lines = [
    '| path | small median | small p95 | large median | large p95 | large ÷ small (≤ 2×) | target at large |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const s of summaries) {
    const ratio = `${s.ratio.toFixed(2)}×${s.withinRatio ? '' : ' **over**'}`;
    const target =
      s.targetMs === undefined ? '—' : `≤ ${s.targetMs.toLocaleString('en')} ms: ${s.withinTarget ? 'yes' : '**no**'}`;
    lines.push(
      `| ${s.name} | ${ms(s.smallFigures.median)} | ${ms(s.smallFigures.p95)} | ${ms(s.largeFigures.median)} | ${ms(s.largeFigures.p95)} | ${ratio} | ${target} |`,
    );
  }
  return lines.join('\n');
};

export const writeResults = (root: string, report: Record<string, unknown>, summaries: Summary[]) => {
  const dir = join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'scale.json');
  const machine = { cores: cpus().length, loadAverage: loadavg().map((l) => Number(l.toFixed(2))) };
  writeFileSync(file, `${JSON.stringify({ ...report, machine, paths: summaries }, null, 2)}\n`);
  return file;
};

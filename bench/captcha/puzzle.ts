/**
 * Slide-puzzle generation cost and image bytes, beside a baseline measured in the same run: sharp
 * rendering a flat 300×150 SVG to PNG (the least any raster puzzle costs).
 */
import sharp from 'sharp';
import { drawPuzzle } from '../../packages/server/src/services/captcha/puzzle.ts';

const RUNS = Number(process.env.RUNS ?? 200);

const time = async (fn: () => Promise<unknown>) => {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95) };
};

const flat = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="100%" height="100%" fill="#8ab"/></svg>',
);
await drawPuzzle();
const baseline = await time(() => sharp(flat).png().toBuffer());
const bytes = { background: 0, piece: 0 };
const puzzle = await time(async () => {
  const p = await drawPuzzle();
  bytes.background += p.background.length;
  bytes.piece += p.piece.length;
});
const mean = (n: number) => Math.round(n / RUNS);
const wire = Math.round(((mean(bytes.background) + mean(bytes.piece)) * 4) / 3);
console.log(`slide puzzle, ${RUNS} challenges (sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips})`);
console.log(`  baseline flat SVG→PNG  median ${baseline.median.toFixed(2)} ms  p95 ${baseline.p95.toFixed(2)} ms`);
console.log(
  `  puzzle (bg + piece)    median ${puzzle.median.toFixed(2)} ms  p95 ${puzzle.p95.toFixed(2)} ms  (${(puzzle.median / baseline.median).toFixed(1)}× baseline)`,
);
console.log(
  `  PNG bytes: background ${mean(bytes.background)} B, piece ${mean(bytes.piece)} B; as base64 data URLs ≈ ${wire} B`,
);

/**
 * Cost of one `track()` call (queue an event: id, timestamp, size check), beside the cost of
 * JSON.stringify of the same event measured in the same run, which every tracker pays at least once.
 *
 *   node bench/sdk/track-cost.mjs
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ESBUILD_CONDITIONS } from '../../scripts/source-condition.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundled = await build({
  entryPoints: [join(root, 'packages/tracker/src/index.ts')],
  bundle: true,
  conditions: ESBUILD_CONDITIONS,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'silent',
});
const { createTracker } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
);

const memory = () => {
  const data = new Map();
  return {
    get: (k) => data.get(k) ?? null,
    set: (k, v) => data.set(k, v),
    remove: (k) => data.delete(k),
    keys: () => [...data.keys()],
  };
};
const transport = { post: async () => 204, beacon: () => true, getJson: async () => ({ now: Date.now() }) };
const timers = { every: () => () => {} };
const data = { lesson: 42, course: 'algebra-1', position: 17.5, source: 'catalogue' };

const measure = (rounds, run) => {
  const times = [];
  for (let r = 0; r < rounds; r++) times.push(run());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
};

// 1000 events fill the queue (its cap), so each round uses a fresh tracker.
const perTrack = measure(300, () => {
  const tracker = createTracker({
    productCode: 'p',
    url: 'https://c',
    consent: { event: true },
    storage: memory(),
    transport,
    timers,
  });
  const start = process.hrtime.bigint();
  for (let i = 0; i < 1000; i++) tracker.track('lesson_open', data);
  return Number(process.hrtime.bigint() - start) / 1000;
});
const perStringify = measure(300, () => {
  const start = process.hrtime.bigint();
  let n = 0;
  for (let i = 0; i < 1000; i++)
    n += JSON.stringify({ e: 'lesson_open', i: '0190b6c2-8f1e-7000-8000-000000000000', t: 1, d: data }).length;
  if (n < 0) console.log(n);
  return Number(process.hrtime.bigint() - start) / 1000;
});
console.log(`track(): ${(perTrack / 1000).toFixed(2)} µs per call (median of 300 rounds of 1000)`);
console.log(
  `JSON.stringify of the same event: ${(perStringify / 1000).toFixed(2)} µs — track() costs ${(perTrack / perStringify).toFixed(1)}× that`,
);

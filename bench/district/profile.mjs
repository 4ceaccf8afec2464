#!/usr/bin/env node
/**
 * Sums the V8 CPU profiles a district run wrote (BENCH_CPU_PROF=<folder>) by where the time went:
 * self time per function and per package or source folder, the largest first.
 *   node bench/district/profile.mjs <folder> [rows]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [folder, rowsArg] = process.argv.slice(2);
if (!folder) {
  console.error('usage: node bench/district/profile.mjs <folder of .cpuprofile files> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const byFunction = new Map();
const byPlace = new Map();
let total = 0;

/** A package name from node_modules, or the source folder, or the runtime's own kind of time. */
const placeOf = (url) => {
  if (!url) return '(runtime)';
  const inModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return url;
  return (
    url
      .replace(/^file:\/\//, '')
      .split('/')
      .slice(-2, -1)[0] ?? url
  );
};

for (const name of readdirSync(folder).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(folder, name), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const ticks = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    ticks.set(id, (ticks.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  for (const [id, micros] of ticks) {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') continue;
    total += micros;
    const fn = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').slice(-1)[0]}:${callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const place = placeOf(callFrame.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  }
}

const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(
      `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`,
    );
  }
};
console.log(`${(total / 1000).toFixed(0)} ms of CPU sampled (idle left out)`);
print('Where (package or source folder), self time', byPlace);
print('Which function, self time', byFunction);

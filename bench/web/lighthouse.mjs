#!/usr/bin/env node
// Lighthouse on the web client's first screen (the sign-in page), served by the real server from a
// production build: the mobile preset (simulated slow 4G and a 4x slower CPU), headless Chromium.
// Prints per run and for the median run (by performance score) the score per category, FCP, LCP, TBT,
// CLS and the JavaScript transferred, lists what Lighthouse flags, and writes the median report to
// bench/results/web-lighthouse.json (ignored by git). Targets: performance ≥ 0.95, accessibility 1,
// best practices ≥ 0.95, first screen JavaScript ≤ 80 KB transferred.
// Usage: node bench/web/lighthouse.mjs (Lighthouse is installed into bench/anchors on demand).
// Knobs: LIGHTHOUSE_RUNS (3), CHROMIUM_PATH (/usr/bin/chromium), LIGHTHOUSE_LOCALE (zh-CN; `en` for an
// English browser).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importAnchor } from '../anchors/anchors.mjs';
import { root, serveBuild } from './serve-build.mjs';

const { default: lighthouse } = await importAnchor('lighthouse');
const chromeLauncher = await importAnchor('chrome-launcher');

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const LOCALE = process.env.LIGHTHOUSE_LOCALE ?? 'zh-CN';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const TARGETS = { performance: 0.95, accessibility: 1, 'best-practices': 0.95 };
const JS_TARGET_BYTES = 80 * 1024;

const { url, stop } = await serveBuild();

const runOnce = async () => {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', `--lang=${LOCALE}`],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      extraHeaders: { 'Accept-Language': LOCALE },
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return result.lhr;
  } finally {
    chrome.kill();
  }
};

const summary = (lhr) => {
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scripts = lhr.audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? 0])),
    fcpMs: Math.round(audit('first-contentful-paint')),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    jsBytes: scripts?.transferSize ?? 0,
    jsRequests: scripts?.requestCount ?? 0,
  };
};

const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await runOnce());
stop();

const rows = runs.map(summary);
const order = rows.map((_, i) => i).sort((a, b) => rows[a].scores.performance - rows[b].scores.performance);
const medianIndex = order[Math.floor(order.length / 2)];
const median = rows[medianIndex];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const line = (name, s) =>
  `  ${name.padEnd(8)} ${CATEGORIES.map((c) => s.scores[c].toFixed(2).padStart(c.length)).join('  ')}  ${`${s.fcpMs}`.padStart(6)}  ${`${s.lcpMs}`.padStart(6)}  ${`${s.tbtMs}`.padStart(5)}  ${s.cls.toFixed(3).padStart(5)}  ${kb(s.jsBytes).padStart(8)} (${s.jsRequests})`;
console.log(`Lighthouse ${runs[0].lighthouseVersion}, mobile preset, ${url} (browser language ${LOCALE}):`);
console.log(`  run      ${CATEGORIES.join('  ')}  FCP ms  LCP ms  TBT ms  CLS    JS transferred (files)`);
for (const [i, s] of rows.entries()) console.log(line(`#${i + 1}`, s));
console.log(line('median', median));
for (const c of CATEGORIES) {
  const met = median.scores[c] >= TARGETS[c];
  console.log(`  ${c} ${median.scores[c].toFixed(2)} (target ≥ ${TARGETS[c]}): ${met ? 'met' : 'MISSED'}`);
}
console.log(
  `  JavaScript transferred ${kb(median.jsBytes)} (target ≤ 80 KB): ${median.jsBytes <= JS_TARGET_BYTES ? 'met' : 'MISSED'}`,
);

// What Lighthouse flags in the median run: scored audits below 1 in the three categories.
const lhr = runs[medianIndex];
const flagged = new Set();
for (const c of CATEGORIES) {
  for (const ref of lhr.categories[c]?.auditRefs ?? []) {
    const a = lhr.audits[ref.id];
    if (ref.weight > 0 && a && a.score !== null && a.score < 1)
      flagged.add(`${c}: ${a.id} (${a.score}) ${a.displayValue ?? ''}`);
  }
}
console.log(flagged.size ? `Flagged:\n  ${[...flagged].join('\n  ')}` : 'Flagged: nothing');

mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/web-lighthouse.json'),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), locale: LOCALE, runs: rows, median, lhr }, null, 2)}\n`,
);

#!/usr/bin/env node
// Web client bench (not a test): the JavaScript the sign-in route loads (bytes, gzip level 9, brotli, and
// what the server actually sent over the wire with its encoding) against the issue's 110 KB target, and its Largest Contentful Paint in headless Chromium on localhost,
// median of several runs, unthrottled and with a slow phone's CPU (4x) and network (150 ms, 1.6 Mbit/s).
// Usage: node bench/web/run.mjs    Knobs: BENCH_RUNS (7), CHROMIUM_PATH (/usr/bin/chromium).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { chromium } from 'playwright-core';
import { ESBUILD_CONDITIONS } from '../../scripts/source-condition.mjs';

const root = new URL('../../', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_GZIP_BYTES = 110 * 1024;
const scratch = mkdtempSync(join(tmpdir(), 'edupass-web-bench-'));
const log = (line) => console.log(line);

// 1. The production build of the web client.
process.env.NODE_ENV = 'production';
const { build } = await import('vite');
const webRoot = join(scratch, 'web');
await build({
  root: join(root, 'packages/web'),
  configFile: join(root, 'packages/web/vite.config.ts'),
  mode: 'production',
  logLevel: 'warn',
  build: { outDir: webRoot, emptyOutDir: true },
});

// 2. The server, bundled as scripts/build.mjs does, serving that build.
const serverPackage = (await import(join(root, 'packages/server/package.json'), { with: { type: 'json' } })).default;
await esbuild({
  entryPoints: { main: join(root, 'packages/server/src/main.ts') },
  // Inside the repository, so the bundle finds the server's npm dependencies in node_modules
  // (a `dist` folder, which git and biome ignore; removed at the end).
  outdir: join(root, 'bench/web/dist'),
  bundle: true,
  conditions: ESBUILD_CONDITIONS,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [...Object.keys(serverPackage.dependencies).filter((n) => !n.startsWith('@edupass/')), 'pino-pretty'],
  logLevel: 'warning',
});
const port = 20_000 + Math.floor(Math.random() * 20_000);
const server = spawn(process.execPath, [join(root, 'bench/web/dist/main.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: join(scratch, 'bench.db'),
    WEB_ROOT: webRoot,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.on('exit', () => server.kill());
const url = `http://127.0.0.1:${port}/`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${url}healthz`)).ok) break;
  } catch {}
  if (i > 100) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

// 3. Sign-in route loads in fresh browser profiles.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

const loadSignIn = async ({ slow }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
  }
  const scripts = new Map();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => undefined);
    const sizes = await response
      .request()
      .sizes()
      .catch(() => undefined);
    const encoding = (await response.headerValue('content-encoding')) ?? 'identity';
    if (body) scripts.set(new URL(response.url()).pathname, { body, sent: sizes?.responseBodySize ?? 0, encoding });
  });
  await page.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator('main h1').waitFor();
  // LCP is final at the first input; a click on the heading ends it as a visitor would.
  await page.waitForTimeout(300);
  await page.locator('main h1').click();
  const lcp = await page.evaluate(() => window.__lcp);
  await context.close();
  const files = [...scripts].map(([path, { body, sent, encoding }]) => ({
    path,
    bytes: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body).length,
    sent,
    encoding,
  }));
  return { lcp, files };
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const result = {};
for (const slow of [false, true]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await loadSignIn({ slow }));
  result[slow ? 'slowPhone' : 'localhost'] = {
    lcpMsMedian: Math.round(median(runs.map((r) => r.lcp))),
    lcpMsRuns: runs.map((r) => Math.round(r.lcp)),
    files: runs[0].files,
  };
}
await browser.close();
server.kill();

const files = result.localhost.files;
const total = files.reduce(
  (sum, f) => ({
    bytes: sum.bytes + f.bytes,
    gzip: sum.gzip + f.gzip,
    brotli: sum.brotli + f.brotli,
    sent: sum.sent + f.sent,
  }),
  { bytes: 0, gzip: 0, brotli: 0, sent: 0 },
);
const row = (name, f, encoding) =>
  `  ${name.padEnd(44)} ${String(f.bytes).padStart(8)} B  ${String(f.gzip).padStart(7)} B gzip  ${String(f.brotli).padStart(7)} B br  ${String(f.sent).padStart(7)} B sent${encoding ? ` (${encoding})` : ''}`;
log('JavaScript loaded by the sign-in route (first visit, fresh profile):');
for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
  log(row(f.path, f, f.encoding));
}
log(row('total', total));
log(`  first screen JavaScript transferred: ${(total.sent / 1024).toFixed(1)} KB (issue's target ≤ 80 KB)`);
log(
  `  target ≤ ${TARGET_GZIP_BYTES} B gzip (110 KB): ${total.gzip <= TARGET_GZIP_BYTES ? 'met' : 'MISSED'} — ${(
    (total.gzip / TARGET_GZIP_BYTES) * 100
  ).toFixed(0)}% of it`,
);
log(
  `LCP, median of ${RUNS}: localhost ${result.localhost.lcpMsMedian} ms (runs ${result.localhost.lcpMsRuns.join(', ')})`,
);
log(
  `LCP, median of ${RUNS}: 4x CPU, 150 ms / 1.6 Mbit/s ${result.slowPhone.lcpMsMedian} ms (runs ${result.slowPhone.lcpMsRuns.join(', ')})`,
);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/web.json'),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), runs: RUNS, js: { ...total, target: TARGET_GZIP_BYTES, files }, lcp: { localhost: result.localhost.lcpMsMedian, slowPhone: result.slowPhone.lcpMsMedian, runs: { localhost: result.localhost.lcpMsRuns, slowPhone: result.slowPhone.lcpMsRuns } } }, null, 2)}\n`,
);
rmSync(scratch, { recursive: true, force: true });
rmSync(join(root, 'bench/web/dist'), { recursive: true, force: true });

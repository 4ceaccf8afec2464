/**
 * Gzip sizes of the tracker and monitor beside well-known anchors, all bundled the same way in one
 * run (esbuild, minified ESM for the browser, gzip -9), printed as ratios.
 *
 * (the anchors are installed into bench/anchors on demand: bench/anchors/anchors.mjs)
 *   node bench/sdk/size.mjs
 *
 * Umami's tracker is not a library on npm: its source ships inside the `umami` app package, so it is
 * taken from that package's tarball (npm pack) instead of installing the whole app.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkSize } from '../../scripts/sdk-size.mjs';
import { anchorsDir, ensureAnchors } from '../anchors/anchors.mjs';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(benchDir, '..');
const UMAMI = '2.10.0';

const umamiTracker = () => {
  const dir = join(anchorsDir, 'node_modules', '.cache', `umami-${UMAMI}`);
  const file = join(dir, 'package', 'src', 'tracker', 'index.js');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', `umami@${UMAMI}`, '--silent'], { cwd: dir, encoding: 'utf8' }).trim();
    execFileSync('tar', ['xzf', tgz, 'package/src/tracker/index.js'], { cwd: dir });
  }
  return file;
};

const sdk = (path) => join(root, path).replaceAll('\\', '/');

/** Each entry uses the library the way a site would: import, init, one event. */
const entries = {
  'edupass tracker': `import { createTracker } from '${sdk('packages/tracker/src/index.ts')}';
    const t = createTracker({ productCode: 'p', url: 'https://c' }); t.start(); t.track('x'); t.startTimer('y'); t.endTimer('y'); t.consent({ event: true });`,
  'edupass monitor (incl. web-vitals)': `import { createMonitor } from '${sdk('packages/monitor/src/index.ts')}';
    createMonitor({ productCode: 'p', url: 'https://c' }).start();`,
  'umami tracker': `import '${umamiTracker()}';`,
  'plausible tracker': `import { init, track } from '@plausible-analytics/tracker'; init({ domain: 'x' }); track('x', {});`,
  snowplow: `import { newTracker, trackPageView } from '@snowplow/browser-tracker'; newTracker('sp', 'c'); trackPageView();`,
  'segment analytics-next': `import { AnalyticsBrowser } from '@segment/analytics-next'; AnalyticsBrowser.load({ writeKey: 'k' }).track('x');`,
  posthog: `import posthog from 'posthog-js'; posthog.init('k'); posthog.capture('x');`,
  amplitude: `import * as amplitude from '@amplitude/analytics-browser'; amplitude.init('k'); amplitude.track('x');`,
  'sentry (errors only)': `import * as Sentry from '@sentry/browser'; Sentry.init({ dsn: 'https://k@o.ingest.sentry.io/1' });`,
};

ensureAnchors();
const rows = [];
for (const [name, contents] of Object.entries(entries)) rows.push({ name, ...(await sdkSize(contents, anchorsDir)) });
const tracker = rows[0].gzip;
const monitor = rows[1].gzip;
const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
console.log('library                              minified      gzip -9   ÷ tracker  ÷ monitor');
for (const row of rows) {
  console.log(
    `${row.name.padEnd(36)} ${kb(row.min).padStart(10)} ${kb(row.gzip).padStart(10)} ${(row.gzip / tracker).toFixed(2).padStart(9)}× ${(row.gzip / monitor).toFixed(2).padStart(8)}×`,
  );
}
const check = (label, size, limit) =>
  console.log(`${label}: ${kb(size)} of ${kb(limit)} budget — ${size <= limit ? 'ok' : 'OVER'}`);
check('tracker target', tracker, 4096);
check('monitor target', monitor, 5120);
if (tracker > 4096 || monitor > 5120) process.exitCode = 1;

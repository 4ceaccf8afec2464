// The web client's production build served by the real server, bundled as scripts/build.mjs does:
// what the web benches load. `serveBuild()` resolves to the page's URL and a `stop()`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { SERVER_BUNDLE } from '../../scripts/server-bundle.mjs';

export const root = new URL('../../', import.meta.url).pathname;

/** `env` is added to the server's environment (SITE_NAME, SITE_LOGO_URL…). */
export const serveBuild = async ({ env = {} } = {}) => {
  const scratch = mkdtempSync(join(tmpdir(), 'edupass-web-bench-'));
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

  // 2. The server, bundled as scripts/build.mjs does (SERVER_BUNDLE), serving that build. Under the
  // server package's node_modules/.cache, so the bundle finds the packages npm keeps under the
  // workspace (nodemailer) as well as the hoisted ones.
  const bundleDir = join(root, 'packages/server/node_modules/.cache/edupass-bench-web');
  await esbuild({
    entryPoints: { main: join(root, 'packages/server/src/main.ts') },
    outdir: bundleDir,
    ...SERVER_BUNDLE,
    logLevel: 'warning',
  });
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = spawn(process.execPath, [join(bundleDir, 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(scratch, 'bench.db'),
      WEB_ROOT: webRoot,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => {
    server.kill();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  };
  process.on('exit', () => server.kill());
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}healthz`)).ok) break;
    } catch {}
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}): its error is above`);
    if (i > 100) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop };
};

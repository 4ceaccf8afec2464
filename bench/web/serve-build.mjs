// The web client's production build served by the real server, bundled as scripts/build.mjs does:
// what the web benches load. `serveBuild()` resolves to the page's URL and a `stop()`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { ESBUILD_CONDITIONS } from '../../scripts/source-condition.mjs';

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
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => {
    server.kill();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(join(root, 'bench/web/dist'), { recursive: true, force: true });
  };
  process.on('exit', () => server.kill());
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}healthz`)).ok) break;
    } catch {}
    if (i > 100) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop };
};

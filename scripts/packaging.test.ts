/**
 * What the packages publish, installed the way a site or an operator installs them: each SDK is
 * built, packed with `npm pack` and installed from its tarball into a scratch project outside the
 * repository (offline: the few third-party runtime dependencies are packed from node_modules too),
 * then imported by plain Node and type-checked by tsc with no access to the sources. The server
 * package is packed (its prepack builds the server and takes the run's one build of the web client
 * and console), its file list checked, and its `edupass` command run from the unpacked tarball, which
 * takes its npm dependencies from the repository's node_modules (a full offline install would need
 * every native build cached).
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@edupass/test-kit/child-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../packages/web/e2e/support/build-app.ts';
import { buildPackage, SDK_PACKAGES } from './build-packages.mjs';
import { sdkSize, shippedBundle } from './sdk-size.mjs';
import { SOURCE_CONDITION } from './source-condition.mjs';

const root = join(import.meta.dirname, '..');
/**
 * Runtime dependencies of the SDKs from outside the repository, React for `@edupass/account/react`,
 * and Node's types, which a backend using `@edupass/node` has.
 */
const THIRD_PARTY = ['@fingerprintjs/fingerprintjs', 'web-vitals', 'react', 'jose', '@types/node', 'undici-types'];

interface BuildTargets {
  types?: string;
  default?: string;
}
type ExportTargets = BuildTargets & { import?: BuildTargets; require?: BuildTargets };

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** Runs a command and answers its output; a failure throws with both streams (tsc reports on stdout). */
const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) => {
  try {
    return execFileSync(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw Object.assign(new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`), { stdout });
  }
};

/**
 * One tsc run over `config` in `dir`: the check (a finding makes tsc exit non-zero, and this throw with
 * it) and the files it read whose path contains `reading`. A child process of its own, not waited on
 * synchronously, so that the tests that check several projects run their tsc side by side.
 */
const typeCheck = async (dir: string, config: string, reading: string) => {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', config, '--listFiles'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 240_000,
    });
    return stdout.split('\n').filter((f) => f.includes(reading));
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -p ${config} in ${dir} failed:\n${stdout}\n${stderr}`);
  }
};

/** `npm pack --json`; with `scripts`, the package's prepack runs first and its output precedes the JSON. */
const pack = (dirs: string[], destination: string, scripts: boolean, env: NodeJS.ProcessEnv = {}): Packed[] => {
  const args = ['pack', ...dirs.map((dir) => join(root, dir)), '--json', '--pack-destination', destination];
  const output = run('npm', scripts ? args : [...args, '--ignore-scripts'], root, { ...process.env, ...env });
  return JSON.parse(output.slice(output.search(/^\[$/m)));
};

const scratch = mkdtempSync(join(tmpdir(), 'edupass-packaging-'));
const tarballs = join(scratch, 'tarballs');
const project = join(scratch, 'project');
let sdks: Packed[] = [];

beforeAll(() => {
  mkdirSync(tarballs);
  mkdirSync(project);
  for (const name of SDK_PACKAGES) buildPackage(name);
  sdks = pack(
    SDK_PACKAGES.map((name) => `packages/${name}`),
    tarballs,
    false,
  );
  const others = pack(
    THIRD_PARTY.map((name) => `node_modules/${name}`),
    tarballs,
    false,
  );
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', ...[...sdks, ...others].map((p) => join(tarballs, p.filename))],
    project,
  );
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the SDK packages, installed from their tarballs', () => {
  it('ship dist (JavaScript and declarations), a README and package.json; no sources, tests or test helpers', () => {
    for (const packed of sdks) {
      const files = packed.files.map((f) => f.path);
      expect(files, packed.name).toContain('package.json');
      expect(files, packed.name).toContain('dist/index.js');
      expect(files, packed.name).toContain('dist/index.d.ts');
      expect(
        files.filter(
          (f) => !/^dist\/.+\.(js|d\.ts)$/.test(f) && !/^(dist\/cjs\/)?package\.json$/.test(f) && f !== 'README.md',
        ),
        packed.name,
      ).toEqual([]);
      expect(
        files.filter((f) => /\.test\.|(^|\/)testing\//.test(f)),
        packed.name,
      ).toEqual([]);
    }
  });

  it('declare a license, a repository, no side effects, and exports whose every published target exists', () => {
    for (const packed of sdks) {
      const dir = join(project, 'node_modules', packed.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(manifest.license, packed.name).toBe('MIT');
      expect(manifest.repository.url, packed.name).toMatch(/^git\+https:/);
      expect(manifest.sideEffects, packed.name).toBe(false);
      const files = packed.files.map((f) => f.path);
      for (const [subpath, targets] of Object.entries<ExportTargets>(manifest.exports)) {
        expect(Object.keys(targets)[0], `${packed.name} ${subpath}`).toBe(SOURCE_CONDITION);
        // Either one build ({ types, default }) or two ({ import: {…}, require: {…} }).
        for (const build of targets.import ? [targets.import, targets.require] : [targets]) {
          expect(files).toContain(build?.types?.replace('./', ''));
          expect(files).toContain(build?.default?.replace('./', ''));
        }
      }
    }
  });

  it('import on plain Node with the same exports as their sources', async () => {
    for (const packed of sdks) {
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', packed.name, 'package.json'), 'utf8'));
      for (const subpath of Object.keys(manifest.exports)) {
        const specifier = subpath === '.' ? packed.name : `${packed.name}${subpath.slice(1)}`;
        // The test process resolves the workspace package to its sources; the child to the install.
        const fromSources = Object.keys(await import(/* @vite-ignore */ specifier)).sort();
        const installed = run(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(specifier)})).sort()))`,
          ],
          project,
        );
        expect(fromSources.length, specifier).toBeGreaterThan(0);
        expect(JSON.parse(installed), specifier).toEqual(fromSources);
      }
    }
  }, 120_000);

  // The two tsc runs below go side by side (it.concurrent): each waits on its own child process.
  it.concurrent('type-check from their declarations alone (tsc, checking the declarations too), and the types are real ones', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
          types: [],
        },
        files: ['site.ts'],
      }),
    );
    writeFileSync(
      join(project, 'site.ts'),
      `import { type AccountClient, createAccountClient, isAuthError, loginByPassword } from '@edupass/account';
import { createApi, isCaptchaError } from '@edupass/captcha';
import { createMonitor } from '@edupass/monitor';
import { SERVER_ERRORS, routes } from '@edupass/protocol';
import { createTracker, type Tracker } from '@edupass/tracker';

const client: AccountClient = createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' });
export const login = () => loginByPassword(client, { identity: 'ada', password: 'Secret123' });
export const tracker: Tracker = createTracker({ productCode: 'p', url: 'https://example.com' });
export const monitor = createMonitor({ productCode: 'p', url: 'https://example.com' });
export const used = [isAuthError, createApi, isCaptchaError, SERVER_ERRORS, routes.loginByPassword];
// @ts-expect-error the declarations are typed, not \`any\`: a tracker is not a number
export const wrong: number = tracker;
// @ts-expect-error an unknown route is refused
export const missing = routes.noSuchRoute;
`,
    );
    const files = await typeCheck(project, 'tsconfig.json', '/@edupass/');
    for (const packed of sdks.filter((p) => p.name !== '@edupass/node'))
      expect(files).toContain(join(project, 'node_modules', packed.name, 'dist', 'index.d.ts'));
    expect(files.filter((f) => !f.endsWith('.d.ts'))).toEqual([]);
  }, 300_000);

  it.concurrent("@edupass/node type-checks from its declarations in a backend's project (with Node's types)", async () => {
    writeFileSync(
      join(project, 'tsconfig.backend.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
          types: ['node'],
        },
        files: ['backend.ts'],
      }),
    );
    writeFileSync(
      join(project, 'backend.ts'),
      `import { createServer } from 'node:http';
import { createVerifier, edupassExpress, edupassFastify, edupassNode, type EduPassClaims, verifyWebhook } from '@edupass/node';

const verifier = createVerifier({ issuer: 'https://account.example.com', audience: 'site' });
export const server = createServer(edupassNode(verifier, (_req, res, claims: EduPassClaims) => res.end(String(claims.userId))));
export const guards = [edupassExpress(verifier), edupassFastify(verifier, { online: true })];
export const event = verifyWebhook<{ type: string }>('whsec_c2VjcmV0', '{}', {}).type;
// @ts-expect-error the claims are typed, not \`any\`: a user id is a number
export const wrong: string = (await verifier.verify('t')).userId;
`,
    );
    const files = await typeCheck(project, 'tsconfig.backend.json', '/@edupass/');
    expect(files).toContain(join(project, 'node_modules', '@edupass/node', 'dist', 'index.d.ts'));
    expect(files.filter((f) => !f.endsWith('.d.ts'))).toEqual([]);
  }, 300_000);

  it('bundle for the browser as small as the sources do (tree-shaking survives the build)', async () => {
    const loginOnly = (from: string) => `import { createAccountClient, loginByPassword } from '${from}';
      loginByPassword(createAccountClient({ pid: 'p', appid: 'a', product_code: 'c', platform: 'web' }), { identity: 'a', password: 'b' });`;
    // The installed package, as a site's bundler sees it (no source condition).
    const { outputFiles } = await shippedBundle({
      stdin: { contents: loginOnly('@edupass/account'), resolveDir: project, loader: 'ts' },
      conditions: ['module'],
    });
    const installed = outputFiles[0]?.contents.length ?? 0;
    const fromSources = await sdkSize(loginOnly(join(root, 'packages/account/src/index.ts')), root);
    expect(installed).toBeGreaterThan(0);
    // Identifier choices may differ by a few bytes; a lost tree-shaking hint would cost kilobytes.
    expect(Math.abs(installed - fromSources.min)).toBeLessThan(256);
  });
});

/**
 * `@edupass/node` in the TypeScript setups sites have, each a project of its own beside the install:
 * ES modules and CommonJS under `module: node16`, a bundler's resolution, and old-style `commonjs`.
 * Each type-checks one backend (Express and Fastify, `req.edupass` typed through the package's
 * `/express` and `/fastify` entries) against the packed declarations alone; the CommonJS build runs
 * under `require`. Fastify and Express's types come from the repository (linked, as a site has them).
 */
describe('@edupass/node in TypeScript and CommonJS backends', () => {
  const BACKEND = `import express from 'express';
import Fastify from 'fastify';
import { createVerifier, type EduPassClaims } from '@edupass/node';
import { edupassExpress } from '@edupass/node/express';
import { edupassFastify } from '@edupass/node/fastify';

const verifier = createVerifier({ issuer: 'https://account.example.com', audience: 'site' });

export const app = express();
app.use('/api', edupassExpress(verifier));
app.get('/api/me', (req, res) => {
  const claims: EduPassClaims | undefined = req.edupass;
  // @ts-expect-error req.edupass is typed, not \`any\`: a user id is a number
  const wrong: string | undefined = req.edupass?.userId;
  res.json({ userId: claims?.userId, wrong });
});

export const fastify = Fastify();
fastify.get('/api/me', { preHandler: edupassFastify(verifier) }, async (request) => {
  const userId: number | undefined = request.edupass?.userId;
  // @ts-expect-error request.edupass is typed, not \`any\`: the scopes are strings
  const wrong: number[] | undefined = request.edupass?.scopes;
  return { userId, wrong };
});
`;
  /** Module settings of each project, and the `type` of its package.json (how Node reads its .ts). */
  const SETUPS = {
    'node16-esm': { type: 'module', options: { module: 'node16', moduleResolution: 'node16' } },
    'node16-cjs': { type: 'commonjs', options: { module: 'node16', moduleResolution: 'node16' } },
    bundler: { type: 'module', options: { module: 'esnext', moduleResolution: 'bundler' } },
    commonjs: { type: 'commonjs', options: { module: 'commonjs', esModuleInterop: true } },
  } as const;
  const LINKED = ['fastify', '@types/express'];

  beforeAll(() => {
    for (const name of LINKED) {
      const link = join(project, 'node_modules', name);
      mkdirSync(join(link, '..'), { recursive: true });
      if (!existsSync(link)) symlinkSync(join(root, 'node_modules', name), link);
    }
  });

  // The four projects' tsc runs go side by side (it.concurrent), each in its own child process.
  it.concurrent.each(Object.keys(SETUPS) as (keyof typeof SETUPS)[])(
    'type-checks a backend using req.edupass with tsc in a `%s` project',
    async (setup) => {
      const { type, options } = SETUPS[setup];
      const dir = join(project, `backend-${setup}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `backend-${setup}`, private: true, type }));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            ...options,
            target: 'ES2022',
            lib: ['ES2022'],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            skipDefaultLibCheck: true,
            types: ['node'],
          },
          files: ['backend.ts'],
        }),
      );
      writeFileSync(join(dir, 'backend.ts'), BACKEND);
      const files = await typeCheck(dir, 'tsconfig.json', '/@edupass/node/');
      // Each setup reads the build its resolution picks: CommonJS declarations for `require`.
      const build = setup === 'node16-cjs' || setup === 'commonjs' ? 'dist/cjs' : 'dist';
      for (const entry of ['index', 'express', 'fastify'])
        expect(files).toContain(join(project, 'node_modules', '@edupass/node', build, `${entry}.d.ts`));
    },
    300_000,
  );

  it('runs its CommonJS build under require(): one module graph for every entry, webhooks verified', () => {
    const dir = join(project, 'backend-require');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'backend-require', private: true }));
    writeFileSync(
      join(dir, 'check.cjs'),
      `const edupass = require('@edupass/node');
const { edupassFastify } = require('@edupass/node/fastify');
const { edupassExpress } = require('@edupass/node/express');
const secret = 'whsec_' + Buffer.from('a webhook secret of thirty-two bytes').toString('base64');
const body = JSON.stringify({ type: 'user.updated' });
const seconds = Math.floor(Date.now() / 1000);
const headers = {
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(seconds),
  'webhook-signature': edupass.signWebhook(secret, 'msg_1', seconds, body),
};
console.log(JSON.stringify({
  file: require.resolve('@edupass/node'),
  sameGuards: edupassFastify === edupass.edupassFastify && edupassExpress === edupass.edupassExpress,
  event: edupass.verifyWebhook(secret, body, headers).type,
  verifier: typeof edupass.createVerifier({ issuer: 'https://account.example.com', audience: 'site' }).verify,
}));
`,
    );
    const answer = JSON.parse(run(process.execPath, ['check.cjs'], dir));
    expect(answer).toEqual({
      file: join(project, 'node_modules', '@edupass/node', 'dist', 'cjs', 'index.js'),
      sameGuards: true,
      event: 'user.updated',
      verifier: 'function',
    });
  });
});

describe('the server package', () => {
  let packed: Packed;
  /** Unpacked inside the repository, so the bundle's imports find the installed npm dependencies. */
  const installDir = join(root, '.tmp', `packaging-${process.pid}`);
  const serverDir = join(installDir, 'node_modules', '@edupass', 'server');
  const work = join(scratch, 'server-work');
  let server: ChildProcess | undefined;

  let web: Awaited<ReturnType<typeof buildApp>> | undefined;

  beforeAll(async () => {
    // The prepack (scripts/build.mjs) builds the server and copies in the web client and console of
    // the run's one build (the browser tests'), which it would otherwise build a second time.
    web = await buildApp();
    [packed] = pack(['packages/server'], tarballs, true, { EDUPASS_WEB_BUILD: web.outDir }) as [Packed];
    mkdirSync(serverDir, { recursive: true });
    mkdirSync(work);
    run('tar', ['xzf', join(tarballs, packed.filename), '-C', serverDir, '--strip-components=1'], root);
    // Dependencies npm keeps under the workspace (where the root cannot hold their version) are the
    // package's own node_modules once installed.
    const own = join(root, 'packages', 'server', 'node_modules');
    if (existsSync(own)) symlinkSync(own, join(serverDir, 'node_modules'));
  }, 180_000);

  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(installDir, { recursive: true, force: true });
    web?.remove();
  });

  it('ships its command, the built server and the built web client; no sources, tests or source maps', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/edupass.js', 'dist/main.js', 'dist/cli.js', 'web/index.html']));
    expect(files).toContain('web/console.html');
    expect(files.some((f) => f.startsWith('web/assets/') && f.endsWith('.js'))).toBe(true);
    expect(files.filter((f) => !/^(bin\/|dist\/[^/]+\.js$|web\/|package\.json$)/.test(f))).toEqual([]);
    expect(files.filter((f) => /\.test\.|\.ts$|\.map$/.test(f))).toEqual([]);
    // The workspace packages are bundled in: nothing at run time reaches for TypeScript sources,
    // and the install fetches no @edupass package.
    const manifest = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@edupass/'))).toEqual([]);
    expect(manifest.license).toBe('MIT');
    for (const file of ['dist/main.js', 'dist/cli.js']) {
      const code = readFileSync(join(serverDir, file), 'utf8');
      expect(code).not.toMatch(/from\s*["']@edupass\//);
      expect(code).not.toMatch(/import\(["'][^"']+\.ts["']\)/);
    }
  });

  const edupass = (args: string[], env: NodeJS.ProcessEnv) =>
    run(process.execPath, [join(serverDir, 'bin', 'edupass.js'), ...args], work, {
      ...process.env,
      NODE_ENV: 'production',
      ...env,
    });

  it('runs `edupass migrate`, `doctor` and `serve` from the install, serving the packaged web client', async () => {
    const env = {
      DATABASE_URL: join(work, 'edupass.db'),
      JWT_SECRET: 'packaging-test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'warn',
    };
    expect(edupass(['migrate'], env)).toMatch(/Applied: /);
    let doctor = '';
    try {
      doctor = edupass(['doctor'], env);
    } catch (error) {
      doctor = String((error as { stdout?: string }).stdout); // a missing provider fails doctor, and says so
    }
    expect(doctor).toMatch(/✓ database: sqlite/);
    expect(doctor).toMatch(/✓ migrations: schema is up to date/);

    const port = await freePort();
    let stderr = '';
    server = spawn(process.execPath, [join(serverDir, 'bin', 'edupass.js'), 'serve'], {
      cwd: work,
      env: { ...process.env, NODE_ENV: 'production', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        async () => {
          if (server?.exitCode !== null) throw new Error(`edupass serve exited: ${stderr}`);
          return fetch(`${url}/healthz`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(200);
    const page = await fetch(`${url}/sign-in`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    // The packaged page as sent: only the deletion's waiting days (15 by default) written in.
    const packaged = readFileSync(join(serverDir, 'web', 'index.html'), 'utf8');
    expect(await page.text()).toBe(
      packaged.replace(
        '<meta name="edupass:deletion-grace-days" content="" />',
        '<meta name="edupass:deletion-grace-days" content="15" />',
      ),
    );
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }, 120_000);
});

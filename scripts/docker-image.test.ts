/**
 * deploy/Dockerfile built and run by a real Docker engine (when `docker info` answers, and the base
 * image is here or can be pulled): the image builds with nothing downloaded but npm packages and
 * Debian's compilers, the container starts with NODE_ENV=production and a secret, answers /readyz,
 * its server runs as an unprivileged user, and `docker stop` with compose's grace period ends it by
 * SIGTERM: a clean exit 0, not the SIGKILL (137) that follows an overrun.
 * The build uses Docker's layer cache: unchanged manifests reuse the installed and compiled packages.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@edupass/test-kit/child-server';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const dockerfile = readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8');
const IMAGE = 'edupass:image-test';
const sqliteGcProbe = join(root, 'packages', 'test-kit', 'src', 'sqlite-gc-probe.cjs');
const sqliteInImage = '/usr/local/lib/node_modules/@edupass/server/node_modules/better-sqlite3';
const docker = (...args: string[]) => spawnSync('docker', args, { encoding: 'utf8', timeout: 120_000 });

/** Why the test cannot run here, or undefined when it can (pulling a missing base image first). */
const whyNot = (): string | undefined => {
  if (docker('info').status !== 0) return 'no Docker engine answers `docker info`';
  const bases = [...new Set([...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map(([, image = '']) => image))];
  for (const base of bases) {
    if (docker('image', 'inspect', base).status !== 0 && docker('pull', base).status !== 0) {
      return `the base image ${base} is not here and cannot be pulled`;
    }
  }
  return undefined;
};
const skipReason = whyNot();
if (skipReason) console.log(`SKIPPED the Docker image test: ${skipReason}.`);

/** Runs docker with its output collected (a build prints a lot); rejects when it fails. */
const run = (args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn('docker', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`docker ${args.join(' ')}: ${code}\n${output.slice(-4000)}`)),
    );
  });

/** compose.yaml's stop_grace_period, in seconds: what the image gets before SIGKILL. */
const graceSeconds = () => {
  const compose = readFileSync(join(root, 'deploy', 'compose.yaml'), 'utf8');
  const seconds = Number(/stop_grace_period:\s*(\d+)s/.exec(compose)?.[1]);
  expect(seconds).toBeGreaterThan(0);
  return seconds;
};

describe.skipIf(skipReason !== undefined)('deploy/Dockerfile in Docker', () => {
  const container = `edupass-image-test-${process.pid}`;
  afterAll(() => {
    docker('rm', '--force', '--volumes', container);
  });

  it('builds, starts in production with a secret, is ready, runs unprivileged and stops within its grace', async () => {
    const started = Date.now();
    await run(['build', '--file', 'deploy/Dockerfile', '--tag', IMAGE, '.']);
    const size = Number(docker('image', 'inspect', IMAGE, '--format', '{{.Size}}').stdout.trim());
    console.log(
      `image ${IMAGE}: built in ${Math.round((Date.now() - started) / 1000)} s, ${Math.round(size / 1e6)} MB`,
    );

    // Host networking: the server's port on this machine, with no reliance on the engine's NAT rules.
    const port = await freePort();
    await run([
      'run',
      '--detach',
      '--name',
      container,
      '--network',
      'host',
      '--env',
      'NODE_ENV=production',
      '--env',
      'JWT_SECRET=image-test-secret-long-enough-0123456789abcdef',
      '--env',
      `PORT=${port}`,
      '--env',
      'HOST=127.0.0.1',
      IMAGE,
    ]);
    const state = () => JSON.parse(docker('inspect', '--format', '{{json .State}}', container).stdout || '{}');
    await expect
      .poll(
        async () => {
          if (state().Running !== true) throw new Error(`the container stopped: ${docker('logs', container).stderr}`);
          return fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(200);
    expect(docker('inspect', '--format', '{{.Config.Env}}', container).stdout).toContain('NODE_ENV=production');

    // The server itself (PID 1: the image's CMD in exec form) runs as the image's unprivileged user.
    expect(docker('exec', container, 'cat', '/proc/1/cmdline').stdout.split('\0')).toEqual(
      expect.arrayContaining(['node', 'serve']),
    );
    const status = docker('exec', container, 'cat', '/proc/1/status').stdout;
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    expect(uid).toBeGreaterThan(0);
    expect(docker('exec', container, 'id', '-un').stdout.trim()).toBe('edupass');

    // The image's SQLite driver survives the garbage collector on the image's Node (an addon compiled
    // against Node 24.19+ headers aborts here: deploy/addon-headers.sh).
    const probe = spawnSync(
      'docker',
      ['exec', '--interactive', container, 'node', '--max-semi-space-size=1', '-', sqliteInImage],
      { input: readFileSync(sqliteGcProbe), encoding: 'utf8', timeout: 120_000 },
    );
    expect(probe.stderr).not.toMatch(/Assertion failed/);
    expect(probe.stdout).toMatch(/prepared \d+ statements/);
    expect(probe.status).toBe(0);

    // SIGTERM, then SIGKILL once compose's grace period is over: exit 0 shows the server left by itself.
    await run(['stop', '--time', String(graceSeconds()), container]);
    expect(state()).toMatchObject({ Running: false, ExitCode: 0, OOMKilled: false });
    const logs = docker('logs', container);
    expect(logs.stdout + logs.stderr).toMatch(/shutting down/);
  }, 1_800_000);
});

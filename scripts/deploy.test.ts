/**
 * The deployment files under deploy/, checked without a Docker engine:
 *  - the Dockerfile's own build and start steps (read from the Dockerfile, not restated here) run in a
 *    clean directory per stage, and the server they build answers;
 *  - compose.yaml passes `docker-compose config` and the nginx site passes `nginx -t`, when those
 *    tools are installed (Debian packages docker-compose and nginx; .ci/run installs both).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { freePort } from '@edupass/test-kit/child-server';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const deploy = join(root, 'deploy');
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions: continuation lines joined, comments and blank lines dropped. */
const parseDockerfile = (text: string): Instruction[][] => {
  const stages: Instruction[][] = [];
  for (const line of text.replace(/\\\n\s*/g, ' ').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
};

const dockerfile = parseDockerfile(readFileSync(join(deploy, 'Dockerfile'), 'utf8'));
const finalStage = dockerfile.at(-1) ?? [];
const last = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword).at(-1)?.args;

describe('deploy/Dockerfile', () => {
  it('builds in one stage and runs in another, as an unprivileged user, with a readiness health check', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile[0]?.[0]?.args).toMatch(/ AS \w+$/i);
    expect(last(finalStage, 'USER')).toMatch(/^(?!root$|0$)\S+$/);
    expect(last(finalStage, 'HEALTHCHECK')).toMatch(/\/readyz/);
    expect(JSON.parse(last(finalStage, 'CMD') ?? 'null')).toEqual(expect.any(Array));
  });

  it('copies every workspace manifest before `npm ci`, so the installed packages are cached by them alone', () => {
    const [build = []] = dockerfile;
    const install = build.findIndex((i) => i.keyword === 'RUN' && /^npm ci\b/.test(i.args));
    const copied = build
      .slice(0, install)
      .filter((i) => i.keyword === 'COPY')
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
    expect(install).toBeGreaterThan(0);
    // With the script that installs the headers the native addon is compiled against.
    expect(copied.sort()).toEqual(
      [
        'deploy/addon-headers.sh',
        'package.json',
        'package-lock.json',
        ...workspaces.map((w) => `${w}/package.json`),
      ].sort(),
    );
  });

  /** Each stage's file system: a directory under the repository, so npm packages resolve from its node_modules. */
  const work = join(root, '.tmp', `dockerfile-${process.pid}`);
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  /** What `npm ci` gives the build stage: the repository's installed packages, the workspaces linked to the copy. */
  const linkInstalledPackages = (dir: string) => {
    const modules = join(dir, 'node_modules');
    mkdirSync(join(modules, '@edupass'), { recursive: true });
    for (const entry of readdirSync(join(root, 'node_modules'))) {
      if (entry !== '@edupass') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
    }
    for (const workspace of readdirSync(join(dir, 'packages'))) {
      symlinkSync(join(dir, 'packages', workspace), join(modules, '@edupass', workspace));
      // What npm installs under a workspace when the root cannot hold its version (a peer range).
      const own = join(root, 'packages', workspace, 'node_modules');
      if (existsSync(own)) symlinkSync(own, join(dir, 'packages', workspace, 'node_modules'));
    }
  };

  /**
   * What `npm install --global [--prefix <dir>] <tarballs>` gives: each package unpacked under the
   * prefix (default /usr/local) with its `bin` linked; its npm dependencies come from the repository's
   * node_modules. A relative tarball path is the RUN's working directory's.
   */
  const installGlobally = (fs: string, cwd: string, command: string) => {
    const prefix = (/--prefix\s+(\S+)/.exec(command)?.[1] ?? '/usr/local').replace(/^\//, '');
    const tarballs = command.split(/\s+/).filter((word) => word.endsWith('.tgz'));
    for (const pattern of tarballs) {
      const dir = pattern.startsWith('/') ? join(fs, dirname(pattern)) : join(cwd, dirname(pattern));
      for (const tarball of readdirSync(dir).filter((f) => f.endsWith('.tgz'))) {
        const unpacked = join(fs, 'tmp', `unpacked-${tarball}`);
        mkdirSync(unpacked, { recursive: true });
        execFileSync('tar', ['xzf', join(dir, tarball), '-C', unpacked, '--strip-components=1']);
        const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
        const target = join(fs, prefix, 'lib/node_modules', manifest.name);
        mkdirSync(dirname(target), { recursive: true });
        cpSync(unpacked, target, { recursive: true });
        const own = join(root, 'packages', manifest.name.replace(/^@edupass\//, ''), 'node_modules');
        if (manifest.name.startsWith('@edupass/') && existsSync(own)) symlinkSync(own, join(target, 'node_modules'));
        mkdirSync(join(fs, prefix, 'bin'), { recursive: true });
        for (const [name, file] of Object.entries<string>(manifest.bin ?? {})) {
          symlinkSync(join(target, file), join(fs, prefix, 'bin', name));
        }
      }
    }
  };

  /**
   * The build context: the files git sees, less .dockerignore's. Its patterns are literal paths,
   * `**\/name` (at any depth) or `*.ext`; any other form fails here rather than be misread.
   */
  const buildContext = () => {
    const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    const ignored = patterns.map((pattern) => {
      const anyDepth = pattern.startsWith('**/');
      const name = anyDepth ? pattern.slice(3) : pattern;
      if (/^\*\.[\w.]+$/.test(name)) return (file: string) => file.endsWith(name.slice(1));
      expect(name, `.dockerignore pattern ${pattern}`).toMatch(/^[\w.-]+(\/[\w.-]+)*$/);
      return (file: string) =>
        file === name ||
        file.startsWith(`${name}/`) ||
        (anyDepth && (file.includes(`/${name}/`) || file.endsWith(`/${name}`)));
    });
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((file) => file && existsSync(join(root, file)) && !ignored.some((isIgnored) => isIgnored(file)));
  };

  it("its build and start steps, run in a clean directory, give a server that answers (the operator's JWT_SECRET given)", async () => {
    const contextFiles = buildContext();
    const stageRoots = new Map<string, string>();
    const log: string[] = [];
    let env: Record<string, string> = {};
    let fs = '';
    let cwd = '';
    const inFs = (path: string) => (path.startsWith('/') ? join(fs, path) : join(cwd, path));

    for (const [index, stage] of dockerfile.entries()) {
      const name = /\sAS\s+(\S+)$/i.exec(stage[0]?.args ?? '')?.[1] ?? String(index);
      fs = join(work, `stage-${name}`);
      stageRoots.set(name, fs);
      mkdirSync(fs, { recursive: true });
      cwd = fs;
      env = {};
      for (const { keyword, args } of stage.slice(1)) {
        if (keyword === 'WORKDIR') {
          cwd = inFs(args);
          mkdirSync(cwd, { recursive: true });
        } else if (keyword === 'ENV') {
          for (const [, key = '', value = ''] of args.matchAll(/(\w+)=(\S+)/g)) {
            env[key] = value.startsWith('/') ? join(fs, value) : value;
          }
        } else if (keyword === 'COPY') {
          const from = /--from=(\S+)/.exec(args)?.[1];
          const paths = args.replace(/--\S+/g, '').trim().split(/\s+/);
          const destination = inFs(paths.at(-1) ?? '');
          for (const source of paths.slice(0, -1)) {
            if (from !== undefined) {
              cpSync(join(stageRoots.get(from) ?? '', source), destination, { recursive: true });
            } else if (source === '.') {
              for (const file of contextFiles) cpSync(join(root, file), join(destination, file), { recursive: true });
            } else {
              expect(contextFiles, `COPY ${source}: not in the build context`).toContain(source);
              cpSync(join(root, source), join(destination, basename(source)));
            }
          }
        } else if (keyword === 'RUN') {
          if (/^npm ci\b/.test(args)) {
            linkInstalledPackages(cwd);
            log.push(`stood in for: ${args}`);
          } else if (/^npm install --global\b/.test(args)) {
            installGlobally(fs, cwd, args.split('&&')[0] ?? '');
            log.push(`stood in for: ${args}`);
          } else if (/^cp -R node_modules\/better-sqlite3\/build /.test(args)) {
            log.push(`stood in for (the repository's node_modules hold the compiled addon): ${args}`);
          } else if (/^sh deploy\/addon-headers\.sh\b/.test(args)) {
            log.push(`stood in for (the repository's node_modules hold the compiled addon): ${args}`);
          } else if (/^apt-get\b/.test(args)) {
            log.push(`stood in for (this machine has the compilers): ${args}`);
          } else if (/^useradd\b/.test(args)) {
            log.push(`skipped (this test runs as its own user): ${args}`);
          } else {
            const result = spawnSync('sh', ['-c', args], {
              cwd,
              env: { ...process.env, ...env },
              encoding: 'utf8',
              timeout: 240_000,
            });
            expect(result.status, `RUN ${args}\n${result.stdout}\n${result.stderr}`).toBe(0);
            log.push(`ran: ${args}`);
          }
        }
      }
    }
    console.log(log.join('\n'));

    const [command = '', ...args] = JSON.parse(last(finalStage, 'CMD') ?? '[]') as string[];
    const port = await freePort();
    const runEnv = {
      ...process.env,
      ...env,
      PATH: `${join(fs, 'usr/local/bin')}:${process.env.PATH}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'dockerfile-test-secret-long-enough-0123456789abcdef',
      LOG_LEVEL: 'warn',
    };
    let stderr = '';
    server = spawn(command, args, { cwd, env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const url = `http://127.0.0.1:${port}`;
    await expect
      .poll(
        () => {
          if (server?.exitCode !== null) throw new Error(`${command} exited: ${stderr}`);
          return fetch(`${url}/healthz`).then(
            (r) => r.status,
            () => 0,
          );
        },
        // Generous: the bundle's first start on a loaded machine (an image build beside it) has
        // taken over 120 s.
        { timeout: 200_000, interval: 100 },
      )
      .toBe(200);
    expect(existsSync(env.DATABASE_URL ?? '')).toBe(true); // the database sits in the image's volume
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">|<script type="module"/);

    // The HEALTHCHECK's own command, once the server has /readyz.
    if ((await fetch(`${url}/readyz`)).status !== 404) {
      const check = JSON.parse((last(finalStage, 'HEALTHCHECK') ?? '').replace(/^.*?CMD\s+/, '')) as string[];
      const [checkCommand = '', ...checkArgs] = check;
      expect(spawnSync(checkCommand, checkArgs, { env: runEnv, timeout: 60_000 }).status).toBe(0);
    }
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }, 300_000);
});

// Each test runs docker-compose (Python) up to twice: well past Vitest's 30 s on a loaded machine.
describe.skipIf(!has('docker-compose'))('deploy/compose.yaml (docker-compose config)', { timeout: 150_000 }, () => {
  const compose = (args: string[], envFile?: string) =>
    spawnSync(
      'docker-compose',
      [...(envFile ? ['--env-file', envFile] : []), '-f', join(deploy, 'compose.yaml'), ...args],
      { encoding: 'utf8', env: { PATH: process.env.PATH }, timeout: 60_000 },
    );

  it('is valid with the settings of env.example, and names nginx, three EduPass instances, PostgreSQL and Redis', () => {
    const config = compose(['config'], join(deploy, 'env.example'));
    expect(config.status, config.stderr).toBe(0);
    const services = compose(['config', '--services'], join(deploy, 'env.example')).stdout.trim().split('\n').sort();
    expect(services).toEqual(['edupass-1', 'edupass-2', 'edupass-3', 'nginx', 'postgres', 'redis']);
    // nginx's upstream lists exactly those instances.
    const upstream = readFileSync(join(deploy, 'nginx', 'upstream-compose.conf'), 'utf8');
    expect([...upstream.matchAll(/server (\S+):8080/g)].map((m) => m[1])).toEqual([
      'edupass-1',
      'edupass-2',
      'edupass-3',
    ]);
    // The instances trust exactly nginx's fixed address for X-Forwarded-For.
    const nginxAddress = /ipv4_address: (\S+)/.exec(config.stdout)?.[1];
    expect(nginxAddress).toBeDefined();
    expect(config.stdout.match(/TRUST_PROXY: (\S+)/g)).toEqual(Array(3).fill(`TRUST_PROXY: ${nginxAddress}`));
  });

  it('gives each instance the grace period the systemd unit and the docs give (35 s, past the server limit of 30 s)', () => {
    const config = compose(['config'], join(deploy, 'env.example'));
    const graces = config.stdout.match(/stop_grace_period: (\S+)/g) ?? [];
    expect(graces).toEqual(Array(3).fill('stop_grace_period: 35s'));
    const unit = readFileSync(join(deploy, 'systemd', 'edupass@.service'), 'utf8');
    expect(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]).toBe('35');
    const docs = readFileSync(join(root, 'docs', 'operators.md'), 'utf8');
    expect(docs).toContain('(`TimeoutStopSec=35` for systemd, `stop_grace_period: 35s` for compose)');
    expect(docs).toMatch(/longer\s+than 30 s exits 1/);
  });

  it('refuses to run without its secrets, naming the missing one', () => {
    const config = compose(['config']);
    expect(config.status).not.toBe(0);
    expect(config.stderr).toMatch(/set (POSTGRES_PASSWORD|JWT_SECRET) in deploy\/\.env/);
  });
});

describe.skipIf(!has('nginx'))('deploy/nginx (nginx -t)', () => {
  it('the site with the local upstream passes nginx -t inside a minimal http block', () => {
    const dir = execFileSync('mktemp', ['-d', join(tmpdir(), 'edupass-nginx-XXXXXX')], { encoding: 'utf8' }).trim();
    try {
      const conf = join(dir, 'nginx.conf');
      writeFileSync(
        conf,
        `pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  include ${join(deploy, 'nginx', 'upstream-local.conf')};
  include ${join(deploy, 'nginx', 'edupass.conf')};
}
`,
      );
      const result = spawnSync('nginx', ['-t', '-e', join(dir, 'error.log'), '-c', conf], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/test is successful/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets X-Forwarded-For to the address nginx sees (a client cannot plant one), over HTTP/1.1 keep-alive', () => {
    const site = readFileSync(join(deploy, 'nginx', 'edupass.conf'), 'utf8');
    expect(site).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(site).toMatch(/proxy_http_version 1\.1;/);
    expect(site).toMatch(/proxy_set_header Connection "";/);
    expect(readFileSync(join(deploy, 'nginx', 'upstream-local.conf'), 'utf8')).toMatch(/keepalive \d+;/);
    // The systemd unit trusts nginx on the same machine, and listens where upstream-local.conf looks.
    const unit = readFileSync(join(deploy, 'systemd', 'edupass@.service'), 'utf8');
    expect(unit).toMatch(/^Environment=TRUST_PROXY=127\.0\.0\.1$/m);
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
  });
});

describe.skipIf(!has('systemd-analyze'))('deploy/systemd (systemd-analyze verify)', () => {
  it('the unit has no unknown or malformed setting, and runs what the image runs', () => {
    const dir = execFileSync('mktemp', ['-d', join(tmpdir(), 'edupass-systemd-XXXXXX')], { encoding: 'utf8' }).trim();
    try {
      const unit = readFileSync(join(deploy, 'systemd', 'edupass@.service'), 'utf8');
      writeFileSync(join(dir, 'edupass@.service'), unit);
      const result = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'edupass@8081.service')], {
        encoding: 'utf8',
      });
      // The one finding allowed: `edupass` is not installed on this machine.
      const findings = `${result.stdout}${result.stderr}`
        .split('\n')
        .filter((line) => line.trim() && !/Command \S+\/edupass is not executable/.test(line));
      expect(findings).toEqual([]);
      const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
      const [command, ...args] = JSON.parse(last(finalStage, 'CMD') ?? '[]') as string[];
      expect([execStart[0]?.split('/').at(-1), ...execStart.slice(1)]).toEqual([command, ...args]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

if (!has('docker-compose'))
  console.log('SKIPPED compose.yaml check: docker-compose is not installed (apt-get install docker-compose).');
if (!has('nginx')) console.log('SKIPPED nginx -t check: nginx is not installed (apt-get install nginx).');
if (!has('systemd-analyze'))
  console.log('SKIPPED systemd unit check: systemd-analyze is not installed (apt-get install systemd).');

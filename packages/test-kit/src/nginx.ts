/**
 * Debian's nginx in front of server processes, run with the site operators are given
 * (`deploy/nginx/edupass.conf`, read from disk) in a scratch dir (`nginx -c <conf> -p <dir>`):
 * it retries a request on the next instance when one cannot be reached, never resends a POST that
 * may have reached one, and answers 503 E_10 with a reason when no instance can (never a bare 502).
 * Only what a test must change is rewritten: the site's `listen` lines become one loopback port,
 * and `deploy/nginx/upstream-local.conf`'s server lines become the test's instances (with the
 * shipped server parameters). A rewrite that does not find what it expects throws, so an edit of
 * the shipped files cannot silently leave the test running something else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './child-server.ts';

export const NGINX = '/usr/sbin/nginx';
export const hasNginx = () => existsSync(NGINX);

const deployNginx = resolve(import.meta.dirname, '..', '..', '..', 'deploy', 'nginx');
export const SITE_FILE = join(deployNginx, 'edupass.conf');
export const UPSTREAM_FILE = join(deployNginx, 'upstream-local.conf');

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

const LISTEN = /^[ \t]*listen[ \t][^;]*;[ \t]*\n/gm;
const SERVER = /^([ \t]*)server[ \t]+127\.0\.0\.1:\d+([^;]*);[ \t]*\n/gm;

/** The shipped site, listening on 127.0.0.1:`port` only (its IPv6 and other listen lines dropped). */
export const siteFor = (site: string, port: number): string => {
  const listens = [...site.matchAll(LISTEN)];
  if (listens.length === 0) throw new Error(`${SITE_FILE}: no listen line to point at the test's port`);
  if (!/^[ \t]*proxy_pass http:\/\/edupass;/m.test(site))
    throw new Error(`${SITE_FILE}: no "proxy_pass http://edupass;", the upstream the test generates`);
  let first = true;
  return site.replace(LISTEN, (line) => {
    if (!first) return '';
    first = false;
    return line.replace(/listen[ \t][^;]*;/, `listen 127.0.0.1:${port};`);
  });
};

/** upstream-local.conf with its server lines replaced by one per test instance, same parameters. */
export const upstreamFor = (upstream: string, ports: number[]): string => {
  if (!/^[ \t]*upstream edupass \{/m.test(upstream)) throw new Error(`${UPSTREAM_FILE}: no "upstream edupass {" block`);
  const servers = [...upstream.matchAll(SERVER)];
  const [template] = servers;
  if (!template) throw new Error(`${UPSTREAM_FILE}: no "server 127.0.0.1:<port> …;" line to replace`);
  const [, indent, parameters] = template;
  const lines = ports.map((p) => `${indent}server 127.0.0.1:${p}${parameters};\n`).join('');
  let first = true;
  return upstream.replace(SERVER, () => {
    if (!first) return '';
    first = false;
    return lines;
  });
};

const config = (dir: string) => `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/upstream.conf;
  include ${dir}/edupass.conf;
}
`;

export const startNginx = async (upstreams: number[]): Promise<Nginx> => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-nginx-'));
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  writeFileSync(join(dir, 'upstream.conf'), upstreamFor(readFileSync(UPSTREAM_FILE, 'utf8'), upstreams));
  writeFileSync(join(dir, 'edupass.conf'), siteFor(readFileSync(SITE_FILE, 'utf8'), port));
  writeFileSync(file, config(dir));
  const child: ChildProcess = spawn(NGINX, ['-c', file, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    if (
      await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) {
          rmSync(dir, { recursive: true, force: true });
          return done();
        }
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          done();
        });
        child.kill('SIGQUIT');
      }),
  };
};

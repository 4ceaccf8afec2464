/**
 * Debian's nginx in front of server processes, run from its own configuration in a scratch dir
 * (`nginx -c <conf> -p <dir>`), as a deployment would: retries a request on the next instance when
 * one cannot be reached, and answers 503 E_10 with a reason when none can (never a bare 502).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './child-server.ts';

export const NGINX = '/usr/sbin/nginx';
export const hasNginx = () => existsSync(NGINX);

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

const config = (dir: string, port: number, upstreams: number[]) => `
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
  upstream edupass {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://edupass;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 1s;
      proxy_read_timeout 20s;
      # An instance that cannot be reached (killed, restarting): try the next one. Requests are
      # safe to repeat (event ids deduplicate, a repeated sign-in is another session).
      proxy_next_upstream error timeout non_idempotent;
      proxy_next_upstream_tries 3;
      error_page 502 504 = @unavailable;
    }
    location @unavailable {
      default_type application/json;
      add_header Retry-After 5 always;
      return 503 '{"error_code":"E_10","error_message":"No server instance answers. Try again in a few seconds.","error_number":68,"error_category":"server","log_uuid":"$request_id"}';
    }
  }
}
`;

export const startNginx = async (upstreams: number[]): Promise<Nginx> => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-nginx-'));
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, upstreams));
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

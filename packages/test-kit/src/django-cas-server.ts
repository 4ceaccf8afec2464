/**
 * A CAS server this project did not write: django-cas-server (Debian's `python3-django-cas-server`,
 * CAS 1/2/3 with single logout), run with Debian's Python for one test person. `available` says
 * whether the machine has it (`apt-get install python3-django-cas-server`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './child-server.ts';
import { hiddenFields } from './html-form.ts';

const PYTHON = '/usr/bin/python3';
const SERVE = fileURLToPath(new URL('./django-cas/serve.py', import.meta.url));

export const djangoCasAvailable = (): boolean =>
  spawnSync(PYTHON, ['-c', 'import cas_server, django'], { stdio: 'ignore' }).status === 0;

export interface DjangoCasPerson {
  user: string;
  password: string;
  attributes: Record<string, string | string[]>;
}

export interface DjangoCas {
  /** The CAS prefix: `http://127.0.0.1:<port>/cas`. */
  url: string;
  /**
   * Fills in and posts the server's own sign-in form for `loginUrl` (what a person does at the
   * school's page); the address it sends the browser back to, and the CAS session's cookies.
   */
  signIn(loginUrl: string): Promise<{ back: string; cookies: string }>;
  /** Signs out at the CAS server (`/cas/logout`), which then posts single logout to the services. */
  logout(cookies: string): Promise<void>;
  close(): Promise<void>;
}

const cookiesOf = (response: Response, before = '') => {
  const jar = new Map(before ? before.split('; ').map((c) => c.split('=', 2) as [string, string]) : []);
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
};

export const startDjangoCas = async (person: DjangoCasPerson): Promise<DjangoCas> => {
  const dir = mkdtempSync(join(tmpdir(), 'edupass-django-cas-'));
  const port = await freePort();
  const child: ChildProcess = spawn(PYTHON, [SERVE, String(port)], {
    env: {
      ...process.env,
      CAS_DB: join(dir, 'cas.sqlite3'),
      CAS_TEST_USER: person.user,
      CAS_TEST_PASSWORD: person.password,
      CAS_TEST_ATTRIBUTES: JSON.stringify(person.attributes),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}/cas`;
  // Migrating and starting takes seconds, more on a loaded machine.
  for (let waited = 0; ; waited += 250) {
    if (child.exitCode !== null) throw new Error(`django-cas-server exited: ${output}`);
    const ok = await fetch(`${url}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (waited > 120_000) throw new Error(`django-cas-server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async signIn(loginUrl) {
      const page = await fetch(loginUrl, { redirect: 'manual' });
      const html = await page.text();
      if (page.status !== 200) throw new Error(`CAS login page ${page.status}: ${html.slice(0, 300)}`);
      const cookies = cookiesOf(page);
      const form = new URLSearchParams(hiddenFields(html));
      form.set('username', person.user);
      form.set('password', person.password);
      const posted = await fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies, referer: loginUrl },
        body: form.toString(),
      });
      const back = posted.headers.get('location');
      if (posted.status !== 302 || !back)
        throw new Error(`CAS sign-in ${posted.status}: ${(await posted.text()).slice(0, 500)}`);
      return { back, cookies: cookiesOf(posted, cookies) };
    },
    async logout(cookies) {
      const answer = await fetch(`${url}/logout`, { headers: { cookie: cookies }, redirect: 'manual' });
      await answer.text();
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      if (child.exitCode === null) await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

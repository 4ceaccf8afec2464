import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from '@edupass/test-kit/harness';
import { expect, it } from 'vitest';

const HTML = { accept: 'text/html,application/xhtml+xml' };
const webRoot = mkdtempSync(join(tmpdir(), 'edupass-web-'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>EduPass</title><main id="edupass-app"></main>');
const { server } = useTestServer({ webRoot });

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

it('serves the web client at / and for any of its page paths (deep links, reloads)', async () => {
  for (const path of ['/', '/account', '/sign-up?from=x', '/account/security']) {
    const answer = await get(path, HTML);
    expect(answer.status, path).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(await answer.text()).toContain('id="edupass-app"');
  }
});

it('keeps JSON 404s for API paths, missing assets and non-browser callers', async () => {
  for (const [path, headers] of [
    ['/tiger/v3/web/accounts/nope', HTML],
    ['/admin/nope', HTML],
    ['/assets/missing.js', HTML],
    ['/account', { accept: 'application/json' }],
  ] as const) {
    const answer = await get(path, headers);
    expect(answer.status, path).toBe(404);
    expect(await answer.json()).toMatchObject({ error_code: 'E_2' });
  }
});

/**
 * The web client's page with the site's name and logo written in (SITE_NAME, SITE_LOGO_URL): on `/`
 * and on every client-side route, escaped, compressed, with a 304 when unchanged; the product's own
 * name and logo when nothing is configured; a bad setting stops the start with its fix.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { withSite } from './web-page.ts';

// The tags as packages/web/index.html has them.
const PAGE = `<!doctype html><html><head>
<meta name="application-name" content="EduPass" />
<meta name="edupass:logo" content="" />
<meta name="edupass:deletion-grace-days" content="" />
<title>EduPass</title></head><body><div id="root"></div></body></html>`;

const webRoot = mkdtempSync(join(tmpdir(), 'edupass-web-'));
writeFileSync(join(webRoot, 'index.html'), PAGE);

const metaContent = (html: string, name: string) =>
  new RegExp(`<meta name="${name}" content="([^"]*)"`).exec(html)?.[1];

describe('a configured site', () => {
  const { server } = useTestServer({
    webRoot,
    site: { name: 'Bright "School" <One>', logoUrl: 'https://cdn.bright.example/logo.svg?a=1&b=2' },
    accountDeletionGraceDays: 21,
  });

  it('writes the name and logo into the page, escaped, on / and on client-side routes', async () => {
    for (const path of ['/', '/index.html', '/account/security']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { accept: 'text/html' } });
      expect(answer.status, path).toBe(200);
      const html = await answer.text();
      expect(metaContent(html, 'application-name'), path).toBe('Bright &quot;School&quot; &lt;One&gt;');
      expect(metaContent(html, 'edupass:logo'), path).toBe('https://cdn.bright.example/logo.svg?a=1&amp;b=2');
      expect(html, path).toContain('<title>Bright &quot;School&quot; &lt;One&gt;</title>');
      // The delete page says until which day signing in keeps a deleted account.
      expect(metaContent(html, 'edupass:deletion-grace-days'), path).toBe('21');
    }
  });

  it('sends the page compressed, revalidated, with a 304 for the same ETag', async () => {
    const first = await fetch(`${server.url}/`, { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(`${server.url}/`, { headers: { accept: 'text/html', 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('no site configured', () => {
  it("keeps the product's name and logo", () => {
    const site = loadConfig({ DATABASE_URL: ':memory:' }).site;
    expect(site).toEqual({ name: 'EduPass', logoUrl: undefined });
    const html = withSite(PAGE, site);
    expect(metaContent(html, 'application-name')).toBe('EduPass');
    expect(metaContent(html, 'edupass:logo')).toBe('');
    expect(metaContent(html, 'edupass:deletion-grace-days')).toBe('');
  });

  it('reads SITE_NAME and SITE_LOGO_URL, and refuses a logo that is no web address or path', () => {
    const env = { DATABASE_URL: ':memory:', SITE_NAME: ' Bright School ', SITE_LOGO_URL: '/brand/logo.svg' };
    expect(loadConfig(env).site).toEqual({ name: 'Bright School', logoUrl: '/brand/logo.svg' });
    for (const bad of ['javascript:alert(1)', '//elsewhere.example/logo.png', 'logo.png']) {
      expect(() => loadConfig({ ...env, SITE_LOGO_URL: bad }), bad).toThrow(/SITE_LOGO_URL.*Fix/s);
    }
    expect(() => loadConfig({ ...env, SITE_NAME: 'x'.repeat(41) })).toThrow(/SITE_NAME.*Fix/s);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { useTestServer } from '@edupass/test-kit/harness';
import { expect, it } from 'vitest';
import { precompressFiles } from '../../../../scripts/vite-precompress.mjs';
import { IMMUTABLE, REVALIDATE } from './web-static.ts';

// A build as vite writes it, compressed by the build's own plugin.
const webRoot = mkdtempSync(join(tmpdir(), 'edupass-web-'));
mkdirSync(join(webRoot, 'assets'));
const html = `<!doctype html><title>EduPass</title>${'<p>first screen</p>'.repeat(200)}`;
const script = `export const app = ${JSON.stringify('x'.repeat(4000))};`;
const files = {
  'index.html': html,
  'assets/index-B1x_9zQa.js': script,
  'assets/react-dom-Cq3k-Lm2.js': script.repeat(2),
  'assets/tiny-D0a1b2c3.css': 'a{color:red}',
};
for (const [name, body] of Object.entries(files)) writeFileSync(join(webRoot, name), body);
expect(await precompressFiles(Object.keys(files).map((name) => join(webRoot, name)))).toBe(3);
const { server } = useTestServer({ webRoot });

interface RawAnswer {
  answer: { status: number | undefined; headers: { get(name: string): string | null } };
  bytes: Buffer;
}

/** The raw answer (fetch would decode it, and we check the bytes that travel). */
const get = (path: string, headers: Record<string, string>) =>
  new Promise<RawAnswer>((resolve, reject) => {
    request(server.url + path, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const header = (name: string) => {
          const value = response.headers[name];
          return value === undefined ? null : String(value);
        };
        resolve({ answer: { status: response.statusCode, headers: { get: header } }, bytes: Buffer.concat(chunks) });
      });
    })
      .on('error', reject)
      .end();
  });

it('sends the brotli copy to browsers that take it, else gzip, else the file itself', async () => {
  const path = '/assets/index-B1x_9zQa.js';
  const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.answer.headers.get('content-encoding')).toBe('br');
  expect(br.answer.headers.get('content-type')).toMatch(/javascript/);
  expect(br.answer.headers.get('vary')).toMatch(/accept-encoding/i);
  expect(brotliDecompressSync(br.bytes).toString()).toBe(script);
  expect(br.bytes.length).toBeLessThan(script.length / 10);

  const gz = await get(path, { 'accept-encoding': 'gzip' });
  expect(gz.answer.headers.get('content-encoding')).toBe('gzip');
  expect(gunzipSync(gz.bytes).toString()).toBe(script);

  const plain = await get(path, { 'accept-encoding': 'identity' });
  expect(plain.answer.headers.get('content-encoding')).toBeNull();
  expect(plain.bytes.toString()).toBe(script);
});

it('caches hashed assets for a year, compressed or not, and small files go as they are', async () => {
  for (const encoding of ['br', 'gzip', 'identity']) {
    const { answer } = await get('/assets/react-dom-Cq3k-Lm2.js', { 'accept-encoding': encoding });
    expect(answer.headers.get('cache-control'), encoding).toBe(IMMUTABLE);
  }
  const tiny = await get('/assets/tiny-D0a1b2c3.css', { 'accept-encoding': 'br' });
  expect(tiny.answer.headers.get('content-encoding')).toBeNull();
  expect(tiny.answer.headers.get('cache-control')).toBe(IMMUTABLE);
});

it('has the HTML revalidated on every load, compressed, with a 304 when unchanged', async () => {
  for (const path of ['/', '/index.html', '/account', '/legal/terms?version=1']) {
    const first = await get(path, { accept: 'text/html', 'accept-encoding': 'br' });
    expect(first.answer.status, path).toBe(200);
    expect(first.answer.headers.get('cache-control'), path).toBe(REVALIDATE);
    expect(first.answer.headers.get('content-encoding'), path).toBe('br');
    expect(brotliDecompressSync(first.bytes).toString()).toBe(html);
    const etag = first.answer.headers.get('etag');
    expect(etag, path).toBeTruthy();
    const again = await get(path, { accept: 'text/html', 'accept-encoding': 'br', 'if-none-match': etag ?? '' });
    expect(again.answer.status, path).toBe(304);
    expect(again.bytes.length).toBe(0);
  }
});

it('does not answer for the compressed copies as pages of their own', async () => {
  const { answer } = await get('/assets/index-B1x_9zQa.js.br', { 'accept-encoding': 'br' });
  expect(answer.status).toBe(404);
});

it('sends scripts and style sheets with the short policy, the page with its own (no 1.5 KB per file)', async () => {
  const policy = async (path: string, accept = '*/*') =>
    (await get(path, { accept, 'accept-encoding': 'br' })).answer.headers.get('content-security-policy') ?? '';
  const page = await policy('/', 'text/html');
  expect(page).toContain('https://*.geetest.com');
  for (const path of ['/assets/index-B1x_9zQa.js', '/assets/tiny-D0a1b2c3.css']) {
    const short = await policy(path);
    expect(short, path).toContain("default-src 'self'");
    expect(short, path).toContain("script-src 'self'");
    expect(short, path).not.toContain('geetest');
    expect(short.length, path).toBeLessThan(page.length / 4);
  }
});

/**
 * The README's Fastify webhook example, run as written in plain Fastify 5 (its types stripped by
 * esbuild, nothing else changed): a delivery signed as EduPass signs it is accepted (204), an altered
 * one refused (400).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from './webhooks.ts';

const packageDir = resolve(import.meta.dirname, '..');
const SECRET = `whsec_${Buffer.from('a webhook secret for the readme test').toString('base64')}`;
const scratch = join(packageDir, '.tmp', `readme-${process.pid}`);

/** The README's fenced code block that sets up the Fastify webhook route. */
const example = () => {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^ {3}```ts\n([\s\S]*?)^ {3}```$/gm)].map(([, code = '']) =>
    code.replace(/^ {3}/gm, ''),
  );
  const found = blocks.find((code) => code.includes("scope.post('/webhooks/edupass'"));
  if (found === undefined) throw new Error('README: no Fastify webhook example');
  return found;
};

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the README Fastify webhook example', () => {
  it('accepts a signed delivery and refuses an altered one, in plain Fastify 5', async () => {
    process.env.EDUPASS_WEBHOOK_SECRET = SECRET;
    const { code } = await transform(`${example()}\nexport { app };\n`, { loader: 'ts', format: 'esm' });
    mkdirSync(scratch, { recursive: true });
    const file = join(scratch, 'example.mjs');
    writeFileSync(file, code);
    const { app } = (await import(pathToFileURL(file).href)) as { app: FastifyInstance };
    try {
      const body = JSON.stringify({ type: 'user.updated', timestamp: new Date().toISOString(), data: { user_id: 7 } });
      const id = 'msg_readme';
      const seconds = Math.floor(Date.now() / 1000);
      const headers = {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(seconds),
        'webhook-signature': signWebhook(SECRET, id, seconds, body),
      };
      const accepted = await app.inject({ method: 'POST', url: '/webhooks/edupass', headers, payload: body });
      expect(accepted.statusCode).toBe(204);
      const altered = await app.inject({
        method: 'POST',
        url: '/webhooks/edupass',
        headers,
        payload: body.replace('"user_id":7', '"user_id":8'),
      });
      expect(altered.statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

/**
 * The web client's page (index.html) as the server sends it: the site's name and logo written in
 * (SITE_NAME, SITE_LOGO_URL; site-config.ts), so the first screen shows them at its first paint, and
 * the days a deleted account waits before it is erased (ACCOUNT_DELETION_GRACE_DAYS), so the delete
 * page says until which day signing in keeps it. The
 * page is prepared once at start, with its brotli and gzip copies and an ETag, and revalidated on
 * every load like the other pages (web-static.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '../config/site-config.ts';
import { REVALIDATE } from './web-static.ts';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The meta tags the web client reads (packages/web/src/site.ts), with the site's values. */
export const withSite = (html: string, site: SiteConfig, deletionGraceDays?: number): string =>
  html
    .replace(/(<meta name="application-name" content=")[^"]*(")/, `$1${escapeAttribute(site.name)}$2`)
    .replace(/(<meta name="edupass:logo" content=")[^"]*(")/, `$1${escapeAttribute(site.logoUrl ?? '')}$2`)
    .replace(
      /(<meta name="edupass:deletion-grace-days" content=")[^"]*(")/,
      `$1${deletionGraceDays === undefined ? '' : String(deletionGraceDays)}$2`,
    )
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(site.name)}</title>`);

export interface WebPage {
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

export const loadWebPage = (root: string, site: SiteConfig, deletionGraceDays: number): WebPage => {
  const body = Buffer.from(withSite(readFileSync(join(root, 'index.html'), 'utf8'), site, deletionGraceDays));
  const copies = { br: brotliCompressSync(body), gzip: gzipSync(body, { level: 9 }) };
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return {
    send(request, reply) {
      reply.header('cache-control', REVALIDATE).header('etag', etag).header('vary', 'accept-encoding');
      reply.type('text/html; charset=utf-8');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
      if (encoding === undefined) return reply.send(body);
      return reply.header('content-encoding', encoding).send(copies[encoding]);
    },
  };
};

/**
 * How the server sends the web client's and console's built files: the brotli or gzip copy the build
 * wrote beside each file when the browser accepts it (scripts/vite-precompress.mjs), hashed assets
 * (`/assets/<name>-<hash>.<ext>`) cached for a year and never revalidated (a new build has new names),
 * everything else (the HTML pages) revalidated on every load (ETag / Last-Modified, so a 304).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AVATAR_NAME } from '../adapters/avatar-store.ts';
import type { WebPage } from './web-page.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const COMPRESSED_COPY = /\.(br|gz)$/;
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/** The Cache-Control for the file at `path` (its compressed copy included). */
export const cacheControlFor = (path: string) =>
  HASHED_ASSET.test(path.replace(/\\/g, '/').replace(COMPRESSED_COPY, '')) ? IMMUTABLE : REVALIDATE;

/** Every file of `root` but the web client's page, which `page` sends (web-page.ts). */
export const serveWebFiles = async (app: FastifyInstance, root: string, page: WebPage) => {
  for (const path of ['/', '/index.html']) app.get(path, { schema: { hide: true } }, page.send);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed copies are other encodings of their file, not pages of their own.
    globIgnore: ['**/*.br', '**/*.gz', 'index.html'],
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', cacheControlFor(path));
    },
  });
};

/** Profile pictures kept on local disk (adapters/avatar-store.ts), at /avatars/<name>: never change, cached a year. */
export const serveAvatars = (app: FastifyInstance, dir: string) => {
  mkdirSync(dir, { recursive: true });
  return app.register(fastifyStatic, {
    root: resolve(dir),
    prefix: '/avatars/',
    decorateReply: false,
    wildcard: true,
    cacheControl: false,
    allowedPath: (path) => AVATAR_NAME.test(path.replace(/^\//, '')),
    setHeaders: (reply) => {
      reply.header('cache-control', IMMUTABLE);
    },
  });
};

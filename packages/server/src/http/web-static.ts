/**
 * How the server sends the web client's and console's built files: the brotli or gzip copy the build
 * wrote beside each file when the browser accepts it (scripts/vite-precompress.mjs), hashed assets
 * (`/assets/<name>-<hash>.<ext>`) cached for a year and never revalidated (a new build has new names),
 * everything else (the HTML pages) revalidated on every load (ETag / Last-Modified, so a 304).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const COMPRESSED_COPY = /\.(br|gz)$/;
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/** The Cache-Control for the file at `path` (its compressed copy included). */
export const cacheControlFor = (path: string) =>
  HASHED_ASSET.test(path.replace(/\\/g, '/').replace(COMPRESSED_COPY, '')) ? IMMUTABLE : REVALIDATE;

export const serveWebFiles = (app: FastifyInstance, root: string) =>
  app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    // The compressed copies are other encodings of their file, not pages of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', cacheControlFor(path));
    },
  });

/**
 * A site on its own port that a sign-in may send the user back to: every path answers a page whose
 * heading names the site and the path, so a test sees where the browser landed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LandingSite {
  origin: string;
  close(): Promise<void>;
}

export const startLandingSite = async (name: string): Promise<LandingSite> => {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>${name}</title><main><h1>${name} ${path}</h1></main></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

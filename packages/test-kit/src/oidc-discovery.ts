/**
 * OpenID Connect discovery documents and nothing else: `<url>/<any path>/.well-known/openid-configuration`
 * names the issuer `<url>/<any path>` and endpoints under it. For tests that add or edit an
 * education-platform connector (whose issuer EduPass reads when saved) but never sign in through it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const WELL_KNOWN = '/.well-known/openid-configuration';

export interface DiscoveryDocuments {
  /** `http://127.0.0.1:<port>`: any issuer under it has a document. */
  url: string;
  close: () => Promise<void>;
}

export const startDiscoveryDocuments = async (): Promise<DiscoveryDocuments> => {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!path.endsWith(WELL_KNOWN)) {
      res.writeHead(404).end();
      return;
    }
    const issuer = `${url}${path.slice(0, -WELL_KNOWN.length)}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/me`,
        jwks_uri: `${issuer}/jwks`,
      }),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

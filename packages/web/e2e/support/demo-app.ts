/**
 * A tiny relying party for the browser tests, as a site would write one with openid-client: `/`
 * says who is signed in (asking EduPass's userinfo each time, so a session ended at EduPass shows
 * at once), `/login` starts the code flow with PKCE, `/callback` finishes it, `/logout` is
 * RP-initiated logout. Sessions live in memory under a cookie.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '@edupass/test-kit/harness';
import { type AppSpec, registerApp } from '@edupass/test-kit/oidc-apps';
import * as oidc from 'openid-client';

export interface DemoApp {
  name: string;
  origin: string;
  /** Connects the app to its registration, once EduPass has it. */
  connect(issuer: string, clientId: string, secret?: string): Promise<void>;
  close(): Promise<void>;
}

interface DemoSession {
  pending?: { verifier: string; state: string };
  tokens?: { access: string; idToken: string; sub: string };
}

const page = (res: ServerResponse, title: string, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
  );
};

const redirect = (res: ServerResponse, location: string) => {
  res.writeHead(302, { location });
  res.end();
};

export const startDemoApp = async (name: string): Promise<DemoApp> => {
  const sessions = new Map<string, DemoSession>();
  // Cookies are per host, not per port: each app names its own.
  const cookie = `${name.toLowerCase()}_sid`;
  let config: oidc.Configuration | undefined;
  let origin = '';

  const sessionOf = (req: IncomingMessage, res: ServerResponse): DemoSession => {
    const id = new RegExp(`(?:^|;\\s*)${cookie}=([^;]+)`).exec(req.headers.cookie ?? '')?.[1];
    const known = id === undefined ? undefined : sessions.get(id);
    if (known) return known;
    const fresh: DemoSession = {};
    const newId = randomUUID();
    sessions.set(newId, fresh);
    res.setHeader('set-cookie', `${cookie}=${newId}; Path=/; HttpOnly; SameSite=Lax`);
    return fresh;
  };

  const home = async (res: ServerResponse, session: DemoSession) => {
    if (config && session.tokens) {
      try {
        const info = await oidc.fetchUserInfo(config, session.tokens.access, session.tokens.sub);
        page(
          res,
          `${name}: signed in`,
          `<p>Signed in as ${info.phone_number ?? info.sub}</p><a href="/logout">Sign out</a>`,
        );
        return;
      } catch {
        session.tokens = undefined;
      }
    }
    page(res, `${name}: signed out`, '<a href="/login">Sign in with EduPass</a>');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', origin);
    const session = sessionOf(req, res);
    if (!config) throw new Error('the demo app is not connected yet');
    if (url.pathname === '/login') {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      session.pending = { verifier, state };
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${origin}/callback`,
        scope: 'openid profile phone',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      return redirect(res, target.href);
    }
    if (url.pathname === '/callback' && session.pending) {
      const tokens = await oidc.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: session.pending.verifier,
        expectedState: session.pending.state,
      });
      session.pending = undefined;
      session.tokens = {
        access: tokens.access_token,
        idToken: String(tokens.id_token),
        sub: String(tokens.claims()?.sub),
      };
      return redirect(res, '/');
    }
    if (url.pathname === '/logout' && session.tokens) {
      const idToken = session.tokens.idToken;
      session.tokens = undefined;
      return redirect(
        res,
        oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: `${origin}/` }).href,
      );
    }
    if (url.pathname === '/' || url.pathname === '/welcome') return home(res, session);
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    name,
    origin,
    async connect(issuer, clientId, secret) {
      config = await oidc.discovery(
        new URL(issuer),
        clientId,
        secret === undefined ? { token_endpoint_auth_method: 'none' } : undefined,
        secret === undefined ? oidc.None() : oidc.ClientSecretBasic(secret),
        { execute: [oidc.allowInsecureRequests] },
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * Registers `demo` at EduPass as a confidential application named after it, with its callback and its
 * home as the way back after signing out (`spec` adds or changes), and connects it.
 */
export const registerDemoApp = async (
  server: TestServer,
  demo: DemoApp,
  operatorToken: string,
  spec: Partial<AppSpec> = {},
): Promise<void> => {
  const made = await registerApp(
    server,
    {
      name: demo.name,
      redirect_uris: [`${demo.origin}/callback`],
      post_logout_redirect_uris: [`${demo.origin}/`],
      ...spec,
    },
    operatorToken,
  );
  await demo.connect(`${server.url}/oidc`, made.application.client_id, made.client_secret);
};

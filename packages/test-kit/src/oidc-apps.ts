/**
 * Test helpers for the identity provider: a test server whose PUBLIC_URL is its own address (the
 * issuer must be the URL relying parties use, and the port is known only once it listens), and
 * applications registered through the console's API.
 */
import type { ApplicationWithSecret } from '@edupass/protocol';
import { expect } from 'vitest';
import type { Config } from '../../server/src/config/config.ts';
import { agreementIdsInEffect, nextPhone, PASSWORD, signInOperator, signUp } from './accounts.ts';
import { type TestServer, useTestServer } from './harness.ts';
import { client } from './http-client.ts';

export const useIssuerServer = (overrides: Partial<Config> = {}) => {
  const used = useTestServer(overrides);
  return {
    ...used,
    /** Call first in the file's beforeAll, before any request to the provider builds it. */
    adoptOwnUrl: () => {
      used.server.app.ctx.config.publicUrl = used.server.url;
    },
  };
};

export interface AppSpec {
  name?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  first_party?: boolean;
  confidential?: boolean;
  logo_url?: string;
  require_pkce?: boolean;
  id_token_signed_response_alg?: string;
  backchannel_logout_uri?: string;
}

export const registerApp = async (server: TestServer, spec: AppSpec, operatorToken?: string) => {
  const token = operatorToken ?? (await signInOperator(server)).token;
  const answer = await client(server.url)<ApplicationWithSecret>(
    'POST',
    '/admin/applications',
    { name: 'Courses', first_party: true, confidential: true, ...spec },
    { token },
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

/**
 * A new account (the agreements in effect signed) whose session began ten seconds ago: prompt=login and max_age compare the session
 * with the request's time in whole seconds, and the same second would read as fresh.
 */
export const signUpBeforeAuthorizations = async (server: TestServer) => {
  const { ctx } = server.app;
  // Read before the clock moves back: ten seconds earlier, agreements seeded at the start are not in effect yet.
  const agreementIds = await agreementIdsInEffect(server);
  const realNow = ctx.now;
  ctx.now = () => realNow() - 10_000;
  try {
    return await signUp(server, nextPhone(), PASSWORD, agreementIds);
  } finally {
    ctx.now = realNow;
  }
};

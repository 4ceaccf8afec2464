/**
 * Test helpers for the identity provider: a test server whose PUBLIC_URL is its own address (the
 * issuer must be the URL relying parties use, and the port is known only once it listens), and
 * applications registered through the console's API.
 */
import type { ApplicationWithSecret } from '@edupass/protocol';
import { expect } from 'vitest';
import type { Config } from '../../server/src/config/config.ts';
import { signInOperator } from './accounts.ts';
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

/** The shared setup of the WeChat and QQ sign-in tests: a server on an injected clock, and the steps they repeat. */
import { ACCOUNTS_BASE as A, type LoginResult, SERVER_ERRORS, type ServerCode } from '@edupass/protocol';
import type { Answer } from '@edupass/test-kit/http-client';
import { providerReturn, useOauthTestServer } from '@edupass/test-kit/oauth-flow';
import { expect } from 'vitest';
import type { OauthProviderName } from '../../adapters/oauth-provider.ts';

export const PID = 'edupass';
let phoneCounter = Math.floor(Math.random() * 10_000_000);
export const nextPhone = () => `137${String(++phoneCounter).padStart(8, '0')}`;
let identityCounter = 0;
export const nextIdentity = () => `测试${Date.now().toString(36).slice(-4)}${++identityCounter}`;

export const expectError = (answer: Answer, code: ServerCode) => {
  expect(answer.body, `expected ${code}, got ${answer.status} ${JSON.stringify(answer.body)}`).toMatchObject({
    error_code: code,
    error_message: expect.any(String),
    error_category: SERVER_ERRORS[code].category,
  });
  expect(answer.status).toBe(SERVER_ERRORS[code].status);
};

export const authCookie = (answer: Answer) =>
  answer.headers.getSetCookie().find((line) => /^authorization=[^;]+/i.test(line)) !== undefined;

export const PROVIDER_ERROR = { wechat: 'C_2', qq: 'C_1' } as const;

/** The file's OAuth test server (its public URL its own), reading the time from `now`, and the steps on it. */
export const useOauthServer = (now: () => number) => {
  const { server, call } = useOauthTestServer({}, { now });

  /** Signs in (or gets a ticket) with a fresh provider round trip for `identity`. */
  const loginAs = async (provider: OauthProviderName, identity: string, extra: Record<string, unknown> = {}) => {
    const back = await providerReturn(server, provider, identity);
    return call(
      'POST',
      `${A}/oauth/${provider}`,
      { code: back.code, state: back.state, pid: PID, ...extra },
      {
        headers: { cookie: back.cookie },
      },
    );
  };

  const ticketFor = async (provider: OauthProviderName, identity: string): Promise<string> => {
    const answer = await loginAs(provider, identity);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as { oauth_ticket: string; user_exists: boolean };
    expect(body).toEqual({ oauth_ticket: expect.any(String), user_exists: false });
    return body.oauth_ticket;
  };

  /** A user of the identity alone (no phone, no password). */
  const userOf = async (provider: OauthProviderName, identity: string): Promise<LoginResult> => {
    const ticket = await ticketFor(provider, identity);
    const created = await call('POST', `${A}/oauth/third-party`, { oauth_ticket: ticket });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as LoginResult;
  };

  const tokenOf = (result: LoginResult) => (typeof result.auth.token === 'string' ? result.auth.token : '');

  const phoneUser = async (): Promise<{ phone: string; token: string; id: number }> => {
    const phone = nextPhone();
    expect(
      (await call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID })).status,
    ).toBe(204);
    const answer = await call('POST', `${A}/register/phone/with-agreement`, {
      phone_number: phone,
      captcha: await server.lastCode(phone),
      password: 'Kestrel2718',
      agreement_ids: [-1],
      pid: PID,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const result = answer.body as LoginResult;
    return { phone, token: tokenOf(result), id: result.user_info.id };
  };

  const bindAs = async (provider: OauthProviderName, token: string, identity: string) => {
    const back = await providerReturn(server, provider, identity);
    return call(
      'POST',
      `${A}/oauth/${provider}/bind`,
      { code: back.code, state: back.state },
      {
        token,
        headers: { cookie: back.cookie },
      },
    );
  };

  const oauths = async (token: string) =>
    (await call('GET', `${A}/oauths`, undefined, { token })).body as {
      name: string;
      nickname: string;
      is_bound: boolean;
    }[];
  return { server, call, loginAs, ticketFor, userOf, tokenOf, phoneUser, bindAs, oauths };
};

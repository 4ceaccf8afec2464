/**
 * Bearer values never reach the request log: the real server, logging at info level into a captured
 * stream, is called with tickets, OAuth codes and states and tokens in the query.
 */
import { randomBytes } from 'node:crypto';
import { A } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../http/log-redaction.ts';

const secret = () => `s3cr3t${randomBytes(12).toString('hex')}`;

describe('the request log', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { logger: { level: 'info', stream: { write: (line) => lines.push(line) } } });
  });
  afterAll(() => server?.close());

  /** The logged URLs of requests (pino's `req` objects). */
  const loggedUrls = () =>
    lines.flatMap((line) => {
      const url = (JSON.parse(line) as { req?: { url?: string } }).req?.url;
      return url === undefined ? [] : [url];
    });

  it('shows where a request went, with ticket, code, state and token values redacted', async () => {
    const values = {
      oauth_ticket: secret(),
      code: secret(),
      state: secret(),
      refresh_token: secret(),
      ticket: secret(),
    };
    const urls = [
      `${A}/oauth/third-party?oauth_ticket=${values.oauth_ticket}`,
      `/oauth/callback/wechat?code=${values.code}&state=${values.state}&lang=zh`,
      `/tiger/v3/web/tokens/refresh?refresh_token=${values.refresh_token}`,
      `${A}/email/register?pid=edupass&Ticket=${values.ticket}`,
    ];
    for (const url of urls) await fetch(server.url + url);
    await expect.poll(() => loggedUrls().length).toBeGreaterThanOrEqual(urls.length);
    const log = lines.join('');
    for (const value of Object.values(values)) expect(log).not.toContain(value);
    expect(loggedUrls()).toEqual(
      expect.arrayContaining([
        `${A}/oauth/third-party?oauth_ticket=${REDACTED}`,
        `/oauth/callback/wechat?code=${REDACTED}&state=${REDACTED}&lang=zh`,
        `/tiger/v3/web/tokens/refresh?refresh_token=${REDACTED}`,
        `${A}/email/register?pid=edupass&Ticket=${REDACTED}`,
      ]),
    );
  });
});

describe('redactUrl', () => {
  it('matches bearer keys however they are spelled and leaves the rest as it came', () => {
    expect(redactUrl('/a?oauth%5Fticket=x&access-token=y&id_token=z&captchaTicket=t&q=%E4%B8%AD')).toBe(
      `/a?oauth%5Fticket=${REDACTED}&access-token=${REDACTED}&id_token=${REDACTED}&captchaTicket=${REDACTED}&q=%E4%B8%AD`,
    );
    expect(redactUrl('/a?%E0%A4%A=1&code')).toBe('/a?%E0%A4%A=1&code');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });
});

/**
 * Codes by e-mail over SMTP: the real server sends through nodemailer to a real SMTP server
 * (smtp-server) started here; the test reads the raw message that arrived (mailparser is unavailable,
 * so the MIME parts are decoded with a few regexes). An address is one plain address: a mail library
 * reads "x<a@b.cn>", "(c)a@b.cn" or "a@b.cn," as a@b.cn, so each would be a new target for the
 * limits and a new account for the same mailbox.
 */
import { ACCOUNTS_BASE as A, ClientCode, checks } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError } from './delivery-error.ts';
import { smtpSender } from './email.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const decodeWords = (header: string) =>
  header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );

/** The decoded text/plain and text/html parts and the subject of a raw message. */
const readMessage = (raw: string) => {
  const subject = decodeWords(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '');
  const parts: Record<string, string> = {};
  for (const part of raw.split(/\r\n--[^\r\n]+/)) {
    const type = /Content-Type: (text\/(?:plain|html))/i.exec(part)?.[1];
    if (!type) continue;
    const encoding = /Content-Transfer-Encoding: ([\w-]+)/i.exec(part)?.[1]?.toLowerCase();
    const body = part.slice(part.indexOf('\r\n\r\n') + 4);
    parts[type] =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? decodeQuotedPrintable(body)
          : body;
  }
  return { subject, text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
};

describe('e-mail codes over SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let server: TestServer;
  let call: ReturnType<typeof client>;
  let smtpPort = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody')) {
          return callback(
            Object.assign(new Error('5.1.1 <nobody@example.com>: Recipient address rejected'), { responseCode: 550 }),
          );
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as { port: number }).port;
    server = await startTestServer({
      smtp: {
        host: '127.0.0.1',
        port: smtpPort,
        secure: false,
        user: undefined,
        password: undefined,
        from: 'EduPass <no-reply@edupass.test>',
      },
      site: { name: 'Bright School', logoUrl: undefined },
    });
    call = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const waitFor = async (to: string) => {
    for (let i = 0; i < 100; i++) {
      const message = received.find((m) => m.to.includes(to));
      if (message) return message;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no message to ${to}`);
  };

  it('sends a bilingual text and HTML message, naming the site and what the code is for, whose code signs the address up', async () => {
    const email = `learner${Date.now()}@example.com`;
    const sent = await call('POST', `${A}/email/captcha/send`, { email, pid: 'edupass' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(204);
    const message = await waitFor(email);
    expect(message.from).toBe('no-reply@edupass.test');
    expect(message.raw).toMatch(/^From: EduPass <no-reply@edupass\.test>/m);
    const { subject, text, html } = readMessage(message.raw);
    const code = /\b(\d{6})\b/.exec(subject)?.[1];
    expect(code, subject).toMatch(/^\d{6}$/);
    expect(subject).toContain('验证码');
    expect(subject).toContain('Your Bright School code');
    expect(text).toContain(`你的验证码是 ${code}，用于注册Bright School账号`);
    expect(text).toContain(`Your code is ${code}. Use it to sign up for Bright School within 5 minutes.`);
    expect(text).toContain('— Bright School');
    expect(`${subject}${text}${html}`).not.toMatch(/EduPass|email_register/);
    expect(html).toContain(`>${code}</p>`);
    expect(html).toMatch(/lang="en"/);
    // Not in the dev outbox: it went by mail.
    expect(await server.lastCode(email)).toBeUndefined();
    const checked = await call('POST', `${A}/email/captcha/check`, { email, captcha: code });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body).toEqual({ ticket: expect.any(String) });
  });

  it('an address the mail server refuses is E_6 saying so, and nothing was delivered', async () => {
    const email = `nobody${Date.now()}@example.com`;
    const answer = await call('POST', `${A}/email/captcha/send`, { email, pid: 'edupass' });
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({
      error_code: 'E_6',
      error_message: expect.stringMatching(/refused this address/),
    });
    expect(received.some((m) => m.to.includes(email))).toBe(false);
  });

  /** Spellings that nodemailer delivers to `address` itself. */
  const otherSpellings = (address: string) => [
    `x<${address}>`,
    `"z"<${address}>`,
    `<${address}>`,
    `${address},`,
    `${address};`,
    `(a)${address}`,
    `${address}(b)`,
    `group:${address};`,
    `"${address}"`,
  ];

  it('an address with a name, comment, quotes, group or list is E_1 (client code 51): no code goes past the limits of the plain one', async () => {
    const victim = `victim${Date.now()}@example.com`;
    for (const email of otherSpellings(victim)) {
      expectError(
        await call('POST', `${A}/email/captcha/send`, { email, pid: 'edupass' }),
        'E_1',
        ClientCode.INVALID_EMAIL,
      );
    }
    expect((await call('POST', `${A}/email/captcha/send`, { email: victim, pid: 'edupass' })).status).toBe(204);
    await waitFor(victim);
    expect(received.filter((m) => m.to.includes(victim))).toHaveLength(1);
  });

  it('what the e-mail rule accepts, nodemailer reads as that one address and nothing else', () => {
    const character = fc.oneof(
      { arbitrary: fc.constantFrom(..."aZ9._-+!#$%&'*/=?^`{|}~中é".split('')), weight: 8 },
      { arbitrary: fc.constantFrom(...'@()<>[]:;\\," \t'.split('')), weight: 1 },
    );
    const part = (maxLength: number) => fc.string({ unit: character, minLength: 1, maxLength });
    const address = fc.tuple(part(12), part(10), part(4)).map(([local, domain, top]) => `${local}@${domain}.${top}`);
    let accepted = 0;
    fc.assert(
      fc.property(address, (email) => {
        if (checks.email(email) !== null) return;
        accepted++;
        expect(addressparser(email)).toEqual([{ name: '', address: email }]);
      }),
      { numRuns: 20_000 },
    );
    expect(accepted).toBeGreaterThan(500);
    for (const email of otherSpellings('victim@example.com')) expect(checks.email(email)).not.toBeNull();
  });

  it('the sender itself refuses an address a mail library would read as another: nothing is delivered', async () => {
    const sender = smtpSender({
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      user: undefined,
      password: undefined,
      from: 'no-reply@edupass.test',
    });
    const victim = `direct${Date.now()}@example.com`;
    try {
      for (const to of otherSpellings(victim)) {
        await expect(
          sender.send({ to, site: 'Bright School', scene: 'email_register', code: '123456', minutes: 5 }),
        ).rejects.toThrow(DeliveryError);
        await expect(sender.sendText({ to, subject: 'Notice', text: 'A notice' })).rejects.toThrow(DeliveryError);
      }
      await sender.sendText({ to: victim, subject: 'Notice', text: 'A notice' });
      await waitFor(victim);
      expect(received.filter((m) => m.to.includes(victim))).toHaveLength(1);
    } finally {
      sender.close();
    }
  });

  it('a mail server that is down is E_6 saying to try later', async () => {
    const down = await startTestServer({
      smtp: {
        host: '127.0.0.1',
        port: 1,
        secure: false,
        user: undefined,
        password: undefined,
        from: 'no-reply@edupass.test',
      },
    });
    try {
      const answer = await client(down.url)('POST', `${A}/email/captcha/send`, {
        email: 'someone@example.com',
        pid: 'edupass',
      });
      expect(answer.status).toBe(502);
      expect(answer.body).toMatchObject({
        error_code: 'E_6',
        error_message: expect.stringMatching(/could not be reached/),
      });
    } finally {
      await down.close();
    }
  });
});

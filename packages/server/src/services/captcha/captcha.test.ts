import { signUp } from '@edupass/test-kit/accounts';
import { captchaWith, startTestServer, useTestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import { humanDrag, straightConstantDrag } from '@edupass/test-kit/slide-drags';
import { drawSlide } from '@edupass/test-kit/slide-tickets';
import { describe, expect, it } from 'vitest';

let clock = Date.now();
const { server, call } = useTestServer(captchaWith({ '*:*': 'risk' }), { now: () => clock });

let phoneSeq = 0;
const newPhone = () => `139${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSeq++).padStart(2, '0')}`;

const rule = (body: Record<string, unknown>) =>
  call<{ rule: string; appid: string; ticket: string }>('POST', '/captcha/rule/v3', body);
const sendRegisterCode = (phone: string, ticket?: string) =>
  call(
    'POST',
    '/tiger/v3/web/accounts/captcha/register/phone/with-agreement',
    { phone_number: phone, pid: 'edupass' },
    {
      headers: ticket === undefined ? {} : { 'X-Captcha-Ticket': ticket },
    },
  );

const challenge = (body: Record<string, unknown>) => drawSlide(server, body);

describe('the captcha rule', () => {
  it('gives a first attempt DEFAULT with a usable ticket, even from a sloppy caller', async () => {
    const answer = await rule({ identity: newPhone(), pid: 123, timestamp: Date.now() });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ rule: 'DEFAULT', appid: '' });
    expect(answer.body.ticket.length).toBeGreaterThan(20);
    expect(Object.keys(answer.body).sort()).toEqual(['appid', 'rule', 'ticket']);
  });

  it('answers on the main backend path too', async () => {
    const answer = await call<{ rule: string }>('POST', '/tiger/captcha/graph/rule', {
      identity: newPhone(),
      scene: 'login',
    });
    expect(answer.body.rule).toBe('DEFAULT');
  });

  it('issues tickets the X-Captcha-Ticket endpoints accept once, for their scene and identity only', async () => {
    const phone = newPhone();
    const { body } = await rule({ identity: phone, scene: 'register', pid: 'edupass', deviceId: 'd', timestamp: 1 });
    expect((await sendRegisterCode(phone, body.ticket)).status).toBe(204);
    const replay = await sendRegisterCode(phone, body.ticket);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error_code: 'GCAP_1', error_message: 'Invalid Ticket.', error_number: 1 });

    const other = await rule({ identity: phone, scene: 'login' });
    expect((await sendRegisterCode(phone, other.body.ticket)).body).toMatchObject({ error_code: 'GCAP_1' });
    const elsewhere = await rule({ identity: newPhone(), scene: 'register' });
    expect((await sendRegisterCode(phone, elsewhere.body.ticket)).body).toMatchObject({ error_code: 'GCAP_1' });
    expect((await sendRegisterCode(phone, 'made-up-ticket')).body).toMatchObject({ error_code: 'GCAP_1' });
  });

  it('refuses login/security without a ticket with GCAP_1', async () => {
    const answer = await call('POST', '/tiger/v3/web/accounts/login/security', {
      identity: newPhone(),
      password: 'whatever1',
      pid: 'edupass',
    });
    expect(answer.body).toMatchObject({ error_code: 'GCAP_1' });
  });

  it('lets tickets expire', async () => {
    const phone = newPhone();
    const { body } = await rule({ identity: phone, scene: 'register' });
    clock += (server.config.captcha.ticketTtlSeconds + 1) * 1000;
    expect((await sendRegisterCode(phone, body.ticket)).body).toMatchObject({ error_code: 'GCAP_1' });
  });
});

describe('the slide puzzle', () => {
  it('draws PNGs, and keeps the gap off the wire', async () => {
    const c = await challenge({ scene: 'register', identity: newPhone() });
    expect(c.background.startsWith('data:image/png;base64,')).toBe(true);
    expect(c.piece.startsWith('data:image/png;base64,')).toBe(true);
    expect({ width: c.width, height: c.height, pieceWidth: c.pieceWidth }).toEqual({
      width: 300,
      height: 150,
      pieceWidth: 48,
    });
    expect(
      Object.keys(c)
        .filter((k) => k !== 'answerX')
        .sort(),
    ).toEqual(
      ['background', 'expiresIn', 'height', 'id', 'piece', 'pieceHeight', 'pieceWidth', 'pieceY', 'width'].sort(),
    );
  });

  it('passes a human-like drag, and its ticket works once', async () => {
    const phone = newPhone();
    const c = await challenge({ scene: 'register', identity: phone });
    const verified = await call<{ ticket: string }>('POST', '/captcha/slide/verify', {
      id: c.id,
      x: c.answerX,
      trajectory: humanDrag(c.answerX, 7),
    });
    expect(verified.status).toBe(200);
    expect((await sendRegisterCode(phone, verified.body.ticket)).status).toBe(204);
    expect((await sendRegisterCode(phone, verified.body.ticket)).body).toMatchObject({ error_code: 'GCAP_1' });
  });

  it('refuses a straight constant-speed drag', async () => {
    const c = await challenge({ scene: 'login', identity: newPhone() });
    const answer = await call('POST', '/captcha/slide/verify', {
      id: c.id,
      x: c.answerX,
      trajectory: straightConstantDrag(c.answerX),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: '10017004', error_message: 'incorrect captcha checking' });
  });

  it('refuses a wrong offset', async () => {
    const c = await challenge({ scene: 'login', identity: newPhone() });
    const x = c.answerX > 150 ? c.answerX - 30 : c.answerX + 30;
    const answer = await call('POST', '/captcha/slide/verify', { id: c.id, x, trajectory: humanDrag(x) });
    expect(answer.body).toMatchObject({ error_code: '10017004' });
  });

  it('refuses a replayed challenge, even with a right answer', async () => {
    const c = await challenge({ scene: 'login', identity: newPhone() });
    const body = { id: c.id, x: c.answerX, trajectory: humanDrag(c.answerX, 3) };
    expect((await call('POST', '/captcha/slide/verify', body)).status).toBe(200);
    expect((await call('POST', '/captcha/slide/verify', body)).body).toMatchObject({ error_code: '10017004' });
  });

  it('refuses an expired challenge', async () => {
    const c = await challenge({ scene: 'login', identity: newPhone() });
    clock += (server.config.captcha.challengeTtlSeconds + 1) * 1000;
    const answer = await call('POST', '/captcha/slide/verify', {
      id: c.id,
      x: c.answerX,
      trajectory: humanDrag(c.answerX),
    });
    expect(answer.body).toMatchObject({ error_code: '10017004' });
  });

  it('counts a failure toward risk: the same identity is then challenged, with SLIDE only for clients that ask', async () => {
    const phone = newPhone();
    const c = await challenge({ scene: 'login', identity: phone, deviceId: 'device-x' });
    await call('POST', '/captcha/slide/verify', {
      id: c.id,
      x: c.answerX,
      trajectory: straightConstantDrag(c.answerX),
    });
    const modern = await rule({ identity: phone, scene: 'login', capabilities: ['SLIDE'] });
    expect(modern.body).toEqual({ rule: 'SLIDE', appid: '', ticket: '' });
    // A client that cannot run SLIDE gets no ticket: with no vendor configured, a refusal it can show.
    const older = await rule({ identity: phone, scene: 'login' });
    expect(older.status).toBe(400);
    expect(older.body).toMatchObject({ error_code: '10017002' });
    const sameDevice = await rule({
      identity: newPhone(),
      scene: 'login',
      deviceId: 'device-x',
      capabilities: ['SLIDE'],
    });
    expect(sameDevice.body.rule).toBe('SLIDE');
  });
});

describe('failed password sign-ins count toward risk', () => {
  // A server of its own: the other tests' code sends from this IP would already count as risky.
  const { server: fresh, call } = useTestServer(captchaWith({ '*:*': 'risk' }));

  it("three wrong passwords are no challenge; after the third the next sign-in is challenged, under any of the account's identities", async () => {
    const rule = (body: Record<string, unknown>) => call<{ rule: string }>('POST', '/captcha/rule/v3', body);
    const account = await signUp(fresh);
    const username = `risk_${account.userId}`;
    expect(
      (await call('PATCH', '/tiger/v3/web/accounts/username', { username }, { token: account.token })).status,
    ).toBe(204);
    const before = await rule({ identity: username, scene: 'login', capabilities: ['SLIDE'] });
    expect(before.body.rule).toBe('DEFAULT');
    const guess = () =>
      call('POST', '/tiger/v3/web/accounts/login', { identity: account.phone, password: 'Wrong1234', pid: 'edupass' });
    for (let i = 0; i < 3; i++) {
      expect((await rule({ identity: username, scene: 'login', capabilities: ['SLIDE'] })).body.rule).toBe('DEFAULT');
      expect((await guess()).status).toBe(403);
    }
    for (const identity of [account.phone, username]) {
      const after = await rule({ identity, scene: 'login', capabilities: ['SLIDE'] });
      expect(after.body.rule).toBe('SLIDE');
    }
  });
});

describe('captcha policies', () => {
  it('always challenges, or never, as configured per product and scene', async () => {
    const strict = await startTestServer({
      captcha: {
        ...server.config.captcha,
        policies: { '*:*': 'risk', 'edupass:login': 'always', 'edupass:common': 'never' },
      },
    });
    try {
      const strictRule = (body: Record<string, unknown>) =>
        client(strict.url)<{ rule: string }>('POST', '/captcha/rule/v3', body);
      expect(
        (await strictRule({ identity: newPhone(), scene: 'login', pid: 'edupass', capabilities: ['SLIDE'] })).body.rule,
      ).toBe('SLIDE');
      expect(
        (await strictRule({ identity: newPhone(), scene: 'register', pid: 'edupass', capabilities: ['SLIDE'] })).body
          .rule,
      ).toBe('DEFAULT');
      expect(
        (await strictRule({ identity: newPhone(), scene: 'common', pid: 'edupass', capabilities: ['SLIDE'] })).body
          .rule,
      ).toBe('DEFAULT');
    } finally {
      await strict.close();
    }
  });
});

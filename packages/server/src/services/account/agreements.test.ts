import { type Agreement, ClientCode } from '@edupass/protocol';
import { A, type Call, client, expectError, PID, signUp } from '@edupass/test-kit/accounts';
import { startTestServer, type TestServer, useTestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAgreement } from '../../store/account/agreements.ts';

const { server, call } = useTestServer();

const list = async (c: Call = call) => {
  const answer = await c<Agreement[]>('GET', `${A}/agreements`);
  expect(answer.status).toBe(200);
  return answer.body;
};
const toSign = async (token?: string, c: Call = call) => {
  const answer = await c<Agreement[]>('GET', `${A}/agreements/need-sign`, undefined, token ? { token } : {});
  expect(answer.status).toBe(200);
  return answer.body;
};
const signAll = (token: string, ids: number[], c: Call = call) =>
  c('POST', `${A}/agreements/sign`, { agreement_ids: ids, pid: PID }, { token });

describe('agreements (GET agreements)', () => {
  it('lists the seeded terms and privacy agreements, anonymously', async () => {
    const agreements = await list();
    expect(agreements.map((a) => a.code).sort()).toEqual(['privacy', 'terms']);
    for (const agreement of agreements) {
      expect(agreement).toEqual({
        id: expect.any(Number),
        code: expect.any(String),
        title: expect.any(String),
        version: 1,
        url: expect.any(String),
        effective_at: expect.any(Number),
        titles: { 'zh-CN': expect.any(String), en: expect.any(String) },
      });
    }
  });
});

describe('agreements to sign (GET agreements/need-sign)', () => {
  it('a visitor must sign every current agreement', async () => {
    expect(await toSign()).toEqual(await list());
  });

  it('a stale token reads as a visitor', async () => {
    expect(await toSign('junk')).toEqual(await list());
  });

  it('a new user who chose none must sign all; after signing (204) none', async () => {
    const account = await signUp(server);
    const current = await list();
    expect(await toSign(account.token)).toEqual(current);
    const signed = await signAll(
      account.token,
      current.map((a) => a.id),
    );
    expect(signed.status).toBe(204);
    expect(await toSign(account.token)).toEqual([]);
  });

  it('signing is idempotent and [-1] signs nothing', async () => {
    const account = await signUp(server);
    const current = await list();
    expect((await signAll(account.token, [-1])).status).toBe(204);
    expect(await toSign(account.token)).toHaveLength(current.length);
    const first = current[0]?.id ?? 0;
    expect((await signAll(account.token, [first])).status).toBe(204);
    expect((await signAll(account.token, [first, first])).status).toBe(204);
    expect((await toSign(account.token)).map((a) => a.id)).not.toContain(first);
  });
});

describe('signing (POST agreements/sign)', () => {
  it('without a token is E_0', async () => {
    expectError(await call('POST', `${A}/agreements/sign`, { agreement_ids: [1], pid: PID }), 'E_0');
  });

  it('an unknown pid is AC3_24', async () => {
    const account = await signUp(server);
    expectError(
      await call('POST', `${A}/agreements/sign`, { agreement_ids: [1], pid: 'x' }, { token: account.token }),
      'AC3_24',
    );
  });

  it('empty agreement_ids is E_1 with client code 55; an unknown id is E_1', async () => {
    const account = await signUp(server);
    const empty = await signAll(account.token, []);
    expectError(empty, 'E_1', ClientCode.EMPTY_AGREEMENT_IDS);
    expect(empty.body).toMatchObject({ error_message: 'agreement_ids should not be an empty array.' });
    expectError(await signAll(account.token, [424242]), 'E_1');
  });
});

describe('latest agreement of each code (POST protocol/list)', () => {
  it('answers the current agreement of each asked code', async () => {
    const answer = await call<Agreement[]>('POST', `${A}/protocol/list`, { codeList: ['terms', 'nope'], pid: PID });
    expect(answer.status).toBe(200);
    expect(answer.body.map((a) => a.code)).toEqual(['terms']);
    const none = await call('POST', `${A}/protocol/list`, { codeList: [], pid: PID });
    expect(none.body).toEqual([]);
  });

  it('an unknown pid is AC3_24; a missing codeList is E_1', async () => {
    expectError(await call('POST', `${A}/protocol/list`, { codeList: ['terms'], pid: 'x' }), 'AC3_24');
    expectError(await call('POST', `${A}/protocol/list`, { pid: PID }), 'E_1');
  });
});

describe('publishing a new version', () => {
  let publishing: TestServer;
  let pcall: Call;
  beforeAll(async () => {
    publishing = await startTestServer();
    pcall = client(publishing.url);
  });
  afterAll(() => publishing.close());

  it('makes need-sign list it for users who signed the old one; only the newest is current', async () => {
    const account = await signUp(publishing);
    const old = await list(pcall);
    expect(
      (
        await signAll(
          account.token,
          old.map((a) => a.id),
          pcall,
        )
      ).status,
    ).toBe(204);
    expect(await toSign(account.token, pcall)).toEqual([]);

    const now = Date.now();
    const v2 = await insertAgreement(publishing.app.ctx.db, {
      code: 'terms',
      title: 'Terms v2',
      version: 2,
      url: '/legal/terms?version=2',
      content: 'New terms.',
      effective_at: now - 1000,
      created_at: now,
    });
    // A version that takes effect tomorrow is not current yet.
    await insertAgreement(publishing.app.ctx.db, {
      code: 'privacy',
      title: 'Privacy v2',
      version: 2,
      url: '/legal/privacy?version=2',
      content: 'Later.',
      effective_at: now + 86_400_000,
      created_at: now,
    });

    const pending = await toSign(account.token, pcall);
    expect(pending.map((a) => [a.id, a.code, a.version])).toEqual([[v2.id, 'terms', 2]]);
    const current = await list(pcall);
    expect(current.map((a) => [a.code, a.version]).sort()).toEqual([
      ['privacy', 1],
      ['terms', 2],
    ]);
    const latest = await pcall<Agreement[]>('POST', `${A}/protocol/list`, { codeList: ['terms'], pid: PID });
    expect(latest.body.map((a) => a.version)).toEqual([2]);

    expect((await signAll(account.token, [v2.id], pcall)).status).toBe(204);
    expect(await toSign(account.token, pcall)).toEqual([]);
  });
});

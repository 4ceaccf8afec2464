/**
 * The guardian's adult check through a real-name vendor, over HTTP against the real server and
 * stand-ins that speak Tencent Cloud's and Aliyun's own protocols and check their signatures: off by
 * default; when on, a guardian consents only after a check found an adult, and the consent record
 * names the vendor's request id; a minor's number, a wrong name, an unknown number, a vendor that is
 * down, bad keys, too many tries. Neither the name nor the ID number is left in any table or log line.
 */
import { type AdultCheck, type ConsentRequest, routes } from '@edupass/protocol';
import { type Account, expectError } from '@edupass/test-kit/accounts';
import { eduSteps } from '@edupass/test-kit/edu-steps';
import { useTestServer } from '@edupass/test-kit/harness';
import { aliyunRealnamePeer, type RealnamePeer, tencentRealnamePeer } from '@edupass/test-kit/realname-peers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealnameConfig } from '../../../config/realname-config.ts';

const logLines: string[] = [];
const { server, call } = useTestServer(
  {},
  { logger: { level: 'debug', stream: { write: (line) => logLines.push(line) } } },
);
const edu = eduSteps(server, call);

/** A mainland ID number born on `birth` (YYYYMMDD) with its GB 11643 check digit. */
const idNumber = (birth: string, serial: string) => {
  const body = `110105${birth}${serial}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(body[i]), 0);
  return `${body}${'10X98765432'[sum % 11]}`;
};

const PEOPLE = [
  { name: '欧阳明远', id: idNumber('19850312', '123') },
  { name: '司马静怡', id: idNumber('19791130', '456') },
  { name: '诸葛青云', id: idNumber('19900101', '789') },
];
const CHILD_NUMBER = idNumber(`${new Date().getUTCFullYear() - 12}0601`, '321');
const UNKNOWN_NUMBER = idNumber('19700101', '999');

const ownCheck = (who: Account) => call<AdultCheck>('GET', routes.ownAdultCheck.path, undefined, { token: who.token });
const check = (who: Account, name: string, id_number: string) =>
  call<AdultCheck>('POST', routes.adultCheck.path, { name, id_number }, { token: who.token });
const openLink = async (child: Account) =>
  edu.ok<{ link: string }>(await call('POST', routes.openConsentLink.path, {}, { token: child.token })).link;
const decide = (guardian: Account, link: string) =>
  call('POST', routes.decideConsent.path, { link, decision: 'consent', relation: 'father' }, { token: guardian.token });

const useVendor = (peer: RealnamePeer, provider: 'tencent' | 'aliyun', secret = 'realname-secret') => {
  const realname: RealnameConfig = {
    provider,
    accessKeyId: 'AKIDrealname',
    accessKeySecret: secret,
    endpoint: peer.url,
    region: provider === 'tencent' ? 'ap-guangzhou' : 'cn-hangzhou',
    timeoutMs: 5_000,
  };
  server.app.ctx.config.realname = realname;
};

/** Every value of every row of every table, as text: what the database holds. */
const everything = async () => {
  const db = server.app.ctx.db;
  const tables = await db.introspection.getTables();
  const dumps: string[] = [];
  for (const table of tables) {
    dumps.push(
      JSON.stringify(
        await db
          .selectFrom(table.name as 'users')
          .selectAll()
          .execute(),
      ),
    );
  }
  return dumps.join('\n');
};

let tencent: RealnamePeer;
let aliyun: RealnamePeer;
beforeAll(async () => {
  tencent = await tencentRealnamePeer('AKIDrealname', 'realname-secret');
  aliyun = await aliyunRealnamePeer('AKIDrealname', 'realname-secret');
  for (const peer of [tencent, aliyun]) for (const p of PEOPLE) peer.register.set(p.id, p.name);
});
afterAll(async () => {
  server.app.ctx.config.realname = undefined;
  await tencent.close();
  await aliyun.close();
});

describe('the adult check of a guardian', () => {
  it('is off by default: nothing to pass, and no vendor to call', async () => {
    server.app.ctx.config.realname = undefined;
    const guardian = await edu.signUpAged(40);
    expect(edu.ok<AdultCheck>(await ownCheck(guardian))).toEqual({ state: 'off', result: null, checked_at: null });
    expectError(await check(guardian, PEOPLE[0]?.name ?? '', PEOPLE[0]?.id ?? ''), 'E_1');
    const child = await edu.signUpAged(10);
    const link = await openLink(child);
    const shown = edu.ok<ConsentRequest>(
      await call('POST', routes.consentRequest.path, { link }, { token: guardian.token }),
    );
    expect(shown.adult_check).toBe('off');
    // No product here discloses to others: the page names none.
    expect(shown.disclosing_apps).toEqual([]);
    edu.ok(await decide(guardian, link), 204);
  });

  for (const provider of ['tencent', 'aliyun'] as const) {
    it(`on ${provider}: consent waits for a check that finds an adult, and the record names the vendor's request`, async () => {
      const peer = provider === 'tencent' ? tencent : aliyun;
      useVendor(peer, provider);
      const [person, other] = provider === 'tencent' ? [PEOPLE[0], PEOPLE[1]] : [PEOPLE[1], PEOPLE[2]];
      if (!person || !other) throw new Error('people');
      const guardian = await edu.signUpAged(41);
      const child = await edu.signUpAged(9);
      const link = await openLink(child);
      const shown = edu.ok<ConsentRequest>(
        await call('POST', routes.consentRequest.path, { link }, { token: guardian.token }),
      );
      expect(shown.adult_check).toBe('needed');
      // Not checked yet: refused, and the link is still good.
      expectError(await decide(guardian, link), 'E_1');

      const sent = peer.requests.length;
      expect(edu.ok<AdultCheck>(await check(guardian, other.name, person.id))).toMatchObject({
        state: 'needed',
        result: 'mismatch',
      });
      expect(edu.ok<AdultCheck>(await check(guardian, person.name, UNKNOWN_NUMBER))).toMatchObject({
        result: 'no_record',
      });
      expectError(await decide(guardian, link), 'E_1');
      const passed = edu.ok<AdultCheck>(await check(guardian, ` ${person.name} `, person.id.toLowerCase()));
      expect(passed).toMatchObject({ state: 'passed', result: 'adult' });
      // The vendor was asked each time, with what the guardian typed.
      expect(peer.requests.length).toBe(sent + 3);
      expect(JSON.stringify(peer.requests.at(-1)?.params)).toContain(person.id);

      edu.ok(await decide(guardian, link), 204);
      const record = await server.app.ctx.db
        .selectFrom('guardian_consents')
        .selectAll()
        .where('child_id', '=', child.userId)
        .executeTakeFirstOrThrow();
      const stored = await server.app.ctx.db
        .selectFrom('guardian_adult_checks')
        .selectAll()
        .where('user_id', '=', guardian.userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ vendor: provider, result: 'adult' });
      expect(stored.request_id).toMatch(/^[0-9A-Fa-f-]{36}$/);
      expect(record).toMatchObject({
        decision: 'granted',
        adult_check_vendor: provider,
        adult_check_request_id: stored.request_id,
        adult_check_at: Number(stored.created_at),
      });
    });
  }

  it("a minor's number is refused without asking the vendor; bad input is E_1 and costs nothing", async () => {
    useVendor(tencent, 'tencent');
    const guardian = await edu.signUpAged(39);
    const sent = tencent.requests.length;
    expect(edu.ok<AdultCheck>(await check(guardian, '欧阳小明', CHILD_NUMBER))).toMatchObject({
      state: 'needed',
      result: 'minor',
    });
    const valid = PEOPLE[0]?.id ?? '';
    const wrongDigit = `${valid.slice(0, 17)}${valid[17] === '0' ? '1' : '0'}`;
    for (const [name, id] of [
      ['欧阳明远', wrongDigit],
      ['欧阳明远', '11010519850312'],
      ['欧阳明远', idNumber('19850230', '123')],
      ['Robert 1', valid],
      ['', valid],
      ['欧阳\u0000明远', valid],
      ['欧'.repeat(41), valid],
    ] as const) {
      const answer = await check(guardian, name, id);
      expectError(answer, 'E_1');
      expect(JSON.stringify(answer.body)).not.toContain(id);
    }
    expect(tencent.requests.length).toBe(sent);
  });

  it('a vendor that is down or refuses the keys is E_10, and spends none of the tries a day', async () => {
    const guardian = await edu.signUpAged(44);
    const person = PEOPLE[2];
    if (!person) throw new Error('people');
    useVendor(tencent, 'tencent');
    tencent.down = true;
    try {
      // More outages than tries a day: none of them counts.
      for (let i = 0; i < 6; i++) expectError(await check(guardian, person.name, person.id), 'E_10');
    } finally {
      tencent.down = false;
    }
    // Aliyun's answer to a bad signature quotes the signed string, name and number included.
    useVendor(aliyun, 'aliyun', 'the-wrong-secret');
    expectError(await check(guardian, person.name, person.id), 'E_10');
    useVendor(aliyun, 'aliyun');
    expect(edu.ok<AdultCheck>(await check(guardian, person.name, person.id)).state).toBe('passed');
  });

  it('allows a few tries a day, counted atomically: of 12 sent at once, 5 reach the vendor and 7 are E_5', async () => {
    useVendor(aliyun, 'aliyun');
    const guardian = await edu.signUpAged(46);
    const person = PEOPLE[1];
    if (!person) throw new Error('people');
    const sentBefore = aliyun.requests.length;
    const answers = await Promise.all(Array.from({ length: 12 }, () => check(guardian, '张三', person.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 200)) expectError(refused, 'E_5');
    expect(aliyun.requests.length - sentBefore).toBe(5);
    const sent = aliyun.requests.length;
    expectError(await check(guardian, person.name, person.id), 'E_5');
    expect(aliyun.requests.length).toBe(sent);
  });

  it('leaves neither a name nor an ID number in any table or log line', async () => {
    const held = await everything();
    const logs = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of [...PEOPLE.flatMap((p) => [p.name, p.id]), CHILD_NUMBER, UNKNOWN_NUMBER, '欧阳小明', '张三']) {
      expect(held).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    // The logs do tell an operator what went wrong, by the vendor's code.
    expect(logs).toContain('SignatureDoesNotMatch');
  });
});

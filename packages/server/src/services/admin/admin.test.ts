import { type AuditEntry, adminRoutes } from '@edupass/protocol';
import {
  A,
  type Account,
  auditorToken,
  expectError,
  nextPhone,
  PASSWORD,
  PID,
  signIn,
  signInOperator,
  signUp,
} from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { findUserByPhone } from '../../store/account/users.ts';

const { server, call } = useTestServer();
let operator: string;
let user: Account;

const pathOf = (path: string, id: number) => path.replace(':id', String(id));

beforeAll(async () => {
  operator = (await signInOperator(server)).token;
  user = await signUp(server);
});

describe('the admin API is for operators only', () => {
  test.each(Object.entries(adminRoutes))('%s: E_0 without a session, E_4 for a non-operator', async (_name, spec) => {
    const path = pathOf(spec.path, user.userId);
    const body = spec.method === 'GET' ? undefined : {};
    expectError(await call(spec.method, path, body), 'E_0');
    expectError(await call(spec.method, path, body, { token: user.token }), 'E_4');
  });
});

describe('path ids', () => {
  test('only canonical decimal ids name a user: hexadecimal, exponents and signs are E_1', async () => {
    const id = user.userId;
    expect((await call('GET', `/admin/users/${id}`, undefined, { token: operator })).status).toBe(200);
    for (const written of [`0x${id.toString(16)}`, `${id}.0`, `${id / 10}e1`, `+${id}`, `0${id}`, ` ${id}`, `${id} `]) {
      const answer = await call('GET', `/admin/users/${encodeURIComponent(written)}`, undefined, { token: operator });
      expectError(answer, 'E_1');
    }
  });
});

describe('users', () => {
  test('search finds a user by phone, by id and by nickname; pages with a cursor', async () => {
    await call('PATCH', `${A}/info`, { nickname: `找我们${user.userId}` }, { token: user.token });
    for (const q of [user.phone, String(user.userId), `找我们${user.userId}`]) {
      const found = await call<{ items: { id: number }[] }>(
        'GET',
        `/admin/users?q=${encodeURIComponent(q)}`,
        undefined,
        {
          token: operator,
        },
      );
      expect(found.status).toBe(200);
      expect(found.body.items.map((u) => u.id)).toContain(user.userId);
    }
    await signUp(server);
    const first = await call<{ items: { id: number }[]; next_cursor?: number }>(
      'GET',
      '/admin/users?limit=1',
      undefined,
      {
        token: operator,
      },
    );
    expect(first.body.items).toHaveLength(1);
    const second = await call<{ items: { id: number }[] }>(
      'GET',
      `/admin/users?limit=1&cursor=${first.body.next_cursor}`,
      undefined,
      {
        token: operator,
      },
    );
    expect(second.body.items[0]?.id).toBeLessThan(first.body.items[0]?.id ?? 0);
  });

  test('search answers from the first step that finds anyone: whole values, then beginnings, then fragments inside', async () => {
    const mark = `a${user.userId}b`;
    const [exact, longer, inside] = [await signUp(server), await signUp(server), await signUp(server)];
    for (const [who, nickname] of [
      [exact, `阶梯${mark}`],
      [longer, `阶梯${mark}号`],
      [inside, `长阶梯${mark}`],
    ] as const) {
      expect((await call('PATCH', `${A}/info`, { nickname }, { token: who.token })).status).toBeLessThan(300);
    }
    const ids = async (q: string) =>
      (
        await call<{ items: { id: number }[] }>('GET', `/admin/users?q=${encodeURIComponent(q)}`, undefined, {
          token: operator,
        })
      ).body.items
        .map((u) => u.id)
        .sort((a, b) => a - b);
    expect(await ids(`阶梯${mark}`)).toEqual([exact.userId]);
    expect(await ids(`阶梯${mark.slice(0, -1)}`)).toEqual([exact.userId, longer.userId]);
    expect(await ids(`梯${mark}`)).toEqual([exact.userId, longer.userId, inside.userId]);
    // One or two characters: whole values and beginnings only.
    expect(await ids('长阶')).toContain(inside.userId);
    expect(await ids('梯')).toEqual([]);
  });

  test('search takes any fragment of a phone, masked or pasted, and of a nickname; 0005 is not user 5', async () => {
    const found = async (q: string) => {
      const answer = await call<{ items: { id: number; phone: string | null }[] }>(
        'GET',
        `/admin/users?q=${encodeURIComponent(q)}`,
        undefined,
        { token: operator },
      );
      expect(answer.status).toBe(200);
      return answer.body.items;
    };
    const phone = user.phone;
    const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
    const pasted = `+86 ${phone.slice(0, 3)} ${phone.slice(3, 7)}-${phone.slice(7)}`;
    for (const q of [phone.slice(4, 9), phone.slice(-4), masked, pasted, `#${user.userId}`, `我们${user.userId}`]) {
      expect(
        (await found(q)).map((u) => u.id),
        q,
      ).toContain(user.userId);
    }
    // A fragment of digits with leading zeros reads as part of a phone, never as an id.
    // (Other accounts may hold those digits in a phone, a nickname or a username: only the id must not match.)
    const fragment = `000${user.userId}`;
    const zeros = await found(fragment);
    expect(zeros.filter((u) => u.id === user.userId && !u.phone?.includes(fragment))).toEqual([]);
    // LIKE's wildcards typed by the operator are plain characters.
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
  });

  test("a user's page shows identities, agreements signed and sessions", async () => {
    const detail = await call<{
      identities: { phone: string };
      sessions: { method: string; live: boolean }[];
      agreements: unknown[];
    }>('GET', `/admin/users/${user.userId}`, undefined, { token: operator });
    expect(detail.status).toBe(200);
    expect(detail.body.identities.phone).toBe(user.phone);
    expect(detail.body.sessions[0]).toMatchObject({ method: 'register_phone', live: true });
    expectError(await call('GET', '/admin/users/999999', undefined, { token: operator }), 'AC3_3');
    expectError(await call('GET', '/admin/users/abc', undefined, { token: operator }), 'E_1');
  });

  test('blocking ends the sessions and refuses sign-in with AC3_44 until unblocked', async () => {
    const victim = await signUp(server);
    expect((await call('POST', `/admin/users/${victim.userId}/block`, {}, { token: operator })).status).toBe(204);
    expectError(await call('GET', `${A}/profile`, undefined, { token: victim.token }), 'E_0');
    expectError(await call('POST', `${A}/login`, { identity: victim.phone, password: PASSWORD, pid: PID }), 'AC3_44');
    expect((await call('POST', `/admin/users/${victim.userId}/unblock`, {}, { token: operator })).status).toBe(204);
    expect((await call('POST', `${A}/login`, { identity: victim.phone, password: PASSWORD, pid: PID })).status).toBe(
      200,
    );
  });

  test('revoking sessions signs the user out everywhere', async () => {
    const target = await signUp(server);
    const second = await signIn(server, target.phone);
    const revoked = await call('POST', `/admin/users/${target.userId}/sessions/revoke`, {}, { token: operator });
    expect(revoked.status).toBe(204);
    for (const token of [target.token, second.access.token]) {
      expectError(await call('GET', `${A}/profile`, undefined, { token }), 'E_0');
    }
  });
});

describe('agreements', () => {
  test('publishing a new version asks users who signed the old one to sign again', async () => {
    const signer = await signUp(server, nextPhone(), PASSWORD, [1, 2]);
    const before = await call<unknown[]>('GET', `${A}/agreements/need-sign`, undefined, { token: signer.token });
    expect(before.body).toEqual([]);
    const published = await call<{ id: number; version: number }>(
      'POST',
      '/admin/agreements',
      { code: 'terms', title: 'Terms v2', content: 'New terms.' },
      { token: operator },
    );
    expect(published.status).toBe(200);
    expect(published.body.version).toBe(2);
    const after = await call<{ id: number; code: string }[]>('GET', `${A}/agreements/need-sign`, undefined, {
      token: signer.token,
    });
    expect(after.body.map((a) => [a.id, a.code])).toEqual([[published.body.id, 'terms']]);
    const versions = await call<{ code: string; version: number }[]>('GET', '/admin/agreements', undefined, {
      token: operator,
    });
    expect(versions.body.filter((a) => a.code === 'terms').map((a) => a.version)).toEqual([2, 1]);
    expectError(
      await call('POST', '/admin/agreements', { code: 'Bad Code', title: 't', content: 'c' }, { token: operator }),
      'E_1',
    );
  });

  test('an agreement URL is a path of this site or an http(s) URL, never javascript: or data:', async () => {
    for (const url of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>1</script>',
      '//evil.example/terms',
      'vbscript:x',
    ]) {
      expectError(
        await call(
          'POST',
          '/admin/agreements',
          { code: 'privacy', title: 't', content: 'c', url },
          { token: operator },
        ),
        'E_1',
      );
    }
    for (const url of ['https://school.example/terms', '/legal/privacy']) {
      const published = await call(
        'POST',
        '/admin/agreements',
        { code: 'privacy', title: 't', content: 'c', url },
        { token: operator },
      );
      expect(published.status, JSON.stringify(published.body)).toBe(200);
    }
  });

  test('the audit log records who did what', async () => {
    const log = await call<{ action: string; operator_id: number }[]>('GET', '/admin/audit', undefined, {
      token: await auditorToken(server),
    });
    expect(log.body.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.block', 'user.unblock', 'user.sessions.revoke', 'agreement.publish']),
    );
  });

  test('the audit log names the operator, filters by action and operator, and pages back with before', async () => {
    const { phone: secondPhone, token: secondToken } = await signInOperator(server);
    const second = { id: (await findUserByPhone(server.app.ctx.db, secondPhone))?.id ?? 0 };
    const target = await signUp(server);
    await call('POST', `/admin/users/${target.userId}/block`, {}, { token: secondToken });
    await call('POST', `/admin/users/${target.userId}/unblock`, {}, { token: operator });
    await call('POST', `/admin/users/${target.userId}/block`, {}, { token: secondToken });
    const read = async (query: string) =>
      (await call<AuditEntry[]>('GET', `/admin/audit${query}`, undefined, { token: await auditorToken(server) })).body;

    const [newest] = await read('?limit=1');
    expect(newest).toMatchObject({
      operator_id: second.id,
      operator_phone: secondPhone,
      action: 'user.block',
      target: `user:${target.userId}`,
    });
    expect(typeof newest?.operator_name).toBe('string');

    const all = await read('?limit=500');
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const paged: AuditEntry[] = [];
    for (let before: number | undefined; ; ) {
      const page = await read(`?limit=2${before === undefined ? '' : `&before=${before}`}`);
      paged.push(...page);
      if (page.length < 2) break;
      before = page.at(-1)?.id;
    }
    expect(paged).toEqual(all);

    const blocksBySecond = await read(`?action=user.block&operator=${second.id}`);
    expect(blocksBySecond.map((e) => [e.action, e.operator_id, e.target])).toEqual([
      ['user.block', second.id, `user:${target.userId}`],
      ['user.block', second.id, `user:${target.userId}`],
    ]);
    expect((await read('?action=user.unblock')).every((e) => e.action === 'user.unblock')).toBe(true);
    expect(await read('?action=no.such.action')).toEqual([]);
    expectError(await call('GET', '/admin/audit?before=abc', undefined, { token: await auditorToken(server) }), 'E_1');

    const operators = await call<{ id: number; phone: string }[]>('GET', '/admin/operators', undefined, {
      token: operator,
    });
    expect(operators.body.map((o) => o.phone)).toEqual(expect.arrayContaining([secondPhone]));
    expect(operators.body.map((o) => o.id)).not.toContain(target.userId);
  });
});

describe('publishing one agreement code at once', () => {
  const { server: raceServer, call: raceCall } = useTestServer();
  let raceOperator: string;
  beforeAll(async () => {
    raceOperator = (await signInOperator(raceServer)).token;
  });

  test('four operators publishing one code at once each get their own version', async () => {
    const code = `race${Date.now().toString(36)}`;
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        raceCall<{ id: number; version: number }>(
          'POST',
          '/admin/agreements',
          { code, title: `Race ${n}`, content: `Text ${n}.` },
          { token: raceOperator },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.version).sort()).toEqual([1, 2, 3, 4]);
  });
});

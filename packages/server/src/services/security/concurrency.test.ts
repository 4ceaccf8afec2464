/**
 * Many clients at once: parallel sign-ups of distinct phones all succeed, parallel sign-ups of one
 * phone create one account, and nothing is lost or duplicated on the way.
 */
import type { LoginResult } from '@edupass/protocol';
import { A, expectError, nextPhone, PASSWORD, PID } from '@edupass/test-kit/accounts';
import { createTestDatabase } from '@edupass/test-kit/databases';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/config.ts';
import { openStore } from '../../store/db.ts';
import { migrate } from '../../store/migrate.ts';

const { server, call } = useTestServer();

const sendCode = (phone: string) =>
  call('POST', `${A}/captcha/register/phone/with-agreement`, { phone_number: phone, pid: PID });
/**
 * A sign-up as a client sends it: asked again after the seconds a crowded server gives (503 E_10 while
 * its queue of password hashes is full: more sign-ups at once than it hashes in a second); the code
 * is spent only by the sign-up that succeeds.
 */
const register = async (phone: string, captcha: string) => {
  for (;;) {
    const answer = await call<LoginResult>('POST', `${A}/register/phone/with-agreement`, {
      phone_number: phone,
      captcha,
      password: PASSWORD,
      agreement_ids: [-1],
      pid: PID,
    });
    const busy = answer.body as unknown as { error_code?: string; retry_after?: number };
    if (answer.status !== 503 || busy.error_code !== 'E_10') return answer;
    await new Promise((resolve) => setTimeout(resolve, (busy.retry_after ?? 1) * 1000 * Math.random()));
  }
};

describe('parallel sign-ups', () => {
  it('200 distinct phones at once: 200 accounts with 200 distinct ids', { timeout: 120_000 }, async () => {
    const phones = Array.from({ length: 200 }, () => nextPhone());
    const sent = await Promise.all(phones.map(sendCode));
    expect(sent.map((a) => a.status)).toEqual(phones.map(() => 204));
    const codes = await Promise.all(phones.map(async (phone) => (await server.lastCode(phone)) ?? ''));
    const answers = await Promise.all(phones.map((phone, i) => register(phone, codes[i] ?? '')));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ids = new Set(answers.map((a) => a.body.user_info.id));
    expect(ids.size).toBe(200);
    const stored = await server.app.ctx.db
      .selectFrom('users')
      .select(['id', 'phone'])
      .where('phone', 'in', phones)
      .execute();
    expect(stored).toHaveLength(200);
    expect(new Set(stored.map((u) => u.id))).toEqual(ids);
  });

  it('one phone registered twice at once: exactly one wins, the other is AC3_0', async () => {
    for (let round = 0; round < 5; round++) {
      const phone = nextPhone();
      await sendCode(phone);
      const captcha = (await server.lastCode(phone)) ?? '';
      const answers = await Promise.all([register(phone, captcha), register(phone, captcha)]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 400]);
      const loser = answers.find((a) => a.status !== 200);
      if (loser) expectError(loser, 'AC3_0');
      const rows = await server.app.ctx.db.selectFrom('users').select('id').where('phone', '=', phone).execute();
      expect(rows).toHaveLength(1);
    }
  });

  it('one phone signing in silently for the first time twice at once: one account', async () => {
    const phone = nextPhone();
    await call('POST', `${A}/captcha/login/silence`, { phone_number: phone, pid: PID });
    const captcha = (await server.lastCode(phone)) ?? '';
    const login = () =>
      call<LoginResult>('POST', `${A}/phone/login/silence`, { phone_number: phone, captcha, pid: PID });
    const answers = await Promise.all([login(), login()]);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const rows = await server.app.ctx.db.selectFrom('users').select('id').where('phone', '=', phone).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('two servers starting at once on one database with no agreements yet', () => {
  it('both start, and the default agreements are seeded once', async () => {
    const database = await createTestDatabase();
    try {
      // The schema is in place first, so the two start-ups race only on the first-start data.
      const migrating = openStore(database.url);
      await migrate(migrating).finally(() => migrating.close());
      const config = { ...loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }), port: 0, host: '127.0.0.1' };
      const started = await Promise.allSettled([
        buildApp(config, { logger: false }),
        buildApp(config, { logger: false }),
      ]);
      await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
      expect(started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason)))).toEqual([
        'started',
        'started',
      ]);
      const store = openStore(database.url);
      try {
        const rows = await store.db.selectFrom('agreements').select(['code', 'version']).orderBy('code').execute();
        expect(rows).toEqual([
          { code: 'privacy', version: 1 },
          { code: 'terms', version: 1 },
        ]);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

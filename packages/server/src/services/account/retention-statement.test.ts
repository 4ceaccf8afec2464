/**
 * The retention statement over HTTP on a real server started with its own settings: anyone may read
 * it, in Chinese (the default) or English; every kind of record has its time, and the times are the
 * running configuration's (not the defaults); a language it is not kept in is E_1.
 */
import { routes } from '@edupass/protocol';
import { expectError } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, test } from 'vitest';

const { call } = useTestServer({
  auditRetentionDays: 400,
  accessLogRetentionDays: 200,
  usageRetentionDays: 60,
  consentEvidenceRetentionYears: 5,
  accountDeletionGraceDays: 7,
});

interface Statement {
  lang: string;
  records: { kind: string; record: string; kept: string; days: number | null }[];
}

const statement = async (query = '', headers: Record<string, string> = {}) => {
  const answer = await call<Statement>('GET', `${routes.retentionStatement.path}${query}`, undefined, { headers });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('the retention statement', () => {
  test('gives each kind of record the time the running settings keep it, in Chinese and in English', async () => {
    const zh = await statement();
    expect(zh.lang).toBe('zh-CN');
    const byKind = Object.fromEntries(zh.records.map((row) => [row.kind, row]));
    expect(byKind.audit_log).toMatchObject({ record: '管理员操作日志', kept: '400 天', days: 400 });
    expect(byKind.access_log).toMatchObject({ kept: '200 天', days: 200 });
    expect(byKind.usage_events).toMatchObject({ kept: '60 天', days: 60 });
    expect(byKind.consent_records?.kept).toBe('账号注销后 5 年');
    expect(byKind.account).toMatchObject({ days: null });
    expect(byKind.account?.kept).toContain('7 天');
    for (const row of zh.records) expect(row.kept).not.toBe('');

    const en = await statement('?lang=en');
    expect(en.lang).toBe('en');
    expect(en.records.map((row) => row.kind)).toEqual(zh.records.map((row) => row.kind));
    expect(en.records.find((row) => row.kind === 'audit_log')).toMatchObject({
      record: 'Operators’ audit log',
      kept: '400 days',
    });
    // Without `lang`, the browser's language.
    expect((await statement('', { 'Accept-Language': 'en-GB,en;q=0.9' })).lang).toBe('en');
  });

  test('a language it is not kept in is E_1', async () => {
    expectError(await call('GET', `${routes.retentionStatement.path}?lang=fr`), 'E_1');
  });
});

/**
 * Network-log retention floors (Cybersecurity Law of the PRC, art. 21: at least six months): the audit
 * log, the staff-read log and the security events refuse fewer than 180 days, and the server process
 * does not start with one, naming the law and the fix.
 */
import { bundleServer, startChildServer } from '@edupass/test-kit/child-server';
import { createTestDatabase } from '@edupass/test-kit/databases';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { NETWORK_LOG_FLOOR_DAYS } from './retention-config.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
};

describe('retention floors of network logs', () => {
  it.each(['AUDIT_RETENTION_DAYS', 'ACCESS_LOG_RETENTION_DAYS', 'SECURITY_EVENT_RETENTION_DAYS'])(
    '%s=30 is refused at start with the law and the fix; 180 is taken',
    (name) => {
      expect(problemsOf({ [name]: '30' })).toContain(
        `${name}=30 keeps network logs under six months: the Cybersecurity Law of the PRC (art. 21) requires at least 180 days. Fix: set ${name}=180 or more`,
      );
      expect(problemsOf({ [name]: String(NETWORK_LOG_FLOOR_DAYS - 1) })).toContain('art. 21');
      expect(problemsOf({ [name]: String(NETWORK_LOG_FLOOR_DAYS) })).toBe('');
    },
  );

  it('the server process with a 30-day audit retention exits with that message', { timeout: 180_000 }, async () => {
    const bundle = await bundleServer();
    const database = await createTestDatabase();
    try {
      const started = startChildServer(bundle.file, { DATABASE_URL: database.url, AUDIT_RETENTION_DAYS: '30' });
      await expect(started).rejects.toThrow(
        /server exited \(1\):[\s\S]*AUDIT_RETENTION_DAYS=30[\s\S]*Cybersecurity Law of the PRC \(art\. 21\)[\s\S]*Fix: set AUDIT_RETENTION_DAYS=180/,
      );
    } finally {
      bundle.remove();
      await database.drop();
    }
  });
});

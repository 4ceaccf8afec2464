/**
 * An imported e-mail address was proved by nobody: applications are told `email_verified: false`
 * (the provider's claims, as for the ID token and userinfo) until the user uses a code sent to it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A, codeFor, nextEmail, PID } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { findAccount } from '../oidc/accounts.ts';
import { findUserByEmail } from '../store/account/users.ts';
import { importUsers } from './import-users.ts';

describe('imported e-mail addresses', () => {
  const { server, call } = useTestServer();

  const claimsOf = async (email: string) => {
    const user = await findUserByEmail(server.app.ctx.db, email);
    const account = await findAccount(server.app.ctx, String(user?.id));
    return account?.claims('userinfo', 'openid email');
  };

  it('are not verified to applications until a code sent to the address is used', async () => {
    const email = nextEmail();
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'users.csv');
    writeFileSync(file, `email,password\n${email},Kestrel2718\n`);
    expect(await importUsers(server.app.ctx, file)).toMatchObject({ imported: 1, problems: [] });
    expect(await claimsOf(email)).toMatchObject({ email, email_verified: false });

    const captcha = await codeFor(server, 'email/captcha/login', { email, pid: PID });
    expect((await call('POST', `${A}/email/login`, { email, captcha, pid: PID })).status).toBe(200);
    expect(await claimsOf(email)).toMatchObject({ email, email_verified: true });
  });
});

/**
 * An imported e-mail address or phone was proved by nobody: applications are told `email_verified:
 * false` / `phone_number_verified: false` (the provider's claims, as for the ID token and userinfo)
 * until the user uses a code sent to it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A, codeFor, nextEmail, nextPhone, PID, signUpSilently } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { describe, expect, it } from 'vitest';
import { findAccount } from '../oidc/accounts.ts';
import { findUserByEmail, findUserByPhone } from '../store/account/users.ts';
import type { User } from '../store/schema.ts';
import { importUsers } from './import-users.ts';

describe('imported contacts', () => {
  const { server, call } = useTestServer();

  const claimsOf = async (user: User | undefined) => {
    const account = await findAccount(server.app.ctx, String(user?.id));
    return account?.claims('userinfo', 'openid email phone');
  };
  const importRow = async (header: string, row: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'users.csv');
    writeFileSync(file, `${header}\n${row}\n`);
    expect(await importUsers(server.app.ctx, file)).toMatchObject({ imported: 1, problems: [] });
  };

  it('an e-mail address is not verified to applications until a code sent to it is used', async () => {
    const email = nextEmail();
    await importRow('email,password', `${email},Kestrel2718`);
    expect(await claimsOf(await findUserByEmail(server.app.ctx.db, email))).toMatchObject({
      email,
      email_verified: false,
    });

    const captcha = await codeFor(server, 'email/captcha/login', { email, pid: PID });
    expect((await call('POST', `${A}/email/login`, { email, captcha, pid: PID })).status).toBe(200);
    expect(await claimsOf(await findUserByEmail(server.app.ctx.db, email))).toMatchObject({
      email,
      email_verified: true,
    });
  });

  it('a phone is not verified to applications until a code sent to it is used', async () => {
    const phone = nextPhone();
    await importRow('phone,username,password', `${phone},imported${phone},Kestrel2718`);
    expect(await claimsOf(await findUserByPhone(server.app.ctx.db, phone))).toMatchObject({
      phone_number: phone,
      phone_number_verified: false,
    });

    const captcha = await codeFor(server, 'captcha/login/post-process', { phone_number: phone, pid: PID });
    const login = await call('POST', `${A}/phone/login/post-process`, { phone_number: phone, captcha, pid: PID });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(await claimsOf(await findUserByPhone(server.app.ctx.db, phone))).toMatchObject({
      phone_number: phone,
      phone_number_verified: true,
    });
  });

  it('an imported e-mail is stored in its one spelling; one with an invisible character is refused', async () => {
    const email = nextEmail();
    const [local, domain] = email.split('@') as [string, string];
    const file = join(mkdtempSync(join(tmpdir(), 'edupass-import-')), 'users.csv');
    const fullWidth = `${local.toUpperCase()}@${domain.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))}`;
    writeFileSync(file, `email,password\n${fullWidth},Kestrel2718\n${local}\u00ad2@${domain},Kestrel2718\n`);
    const report = await importUsers(server.app.ctx, file);
    expect(report.imported).toBe(1);
    expect(report.problems).toEqual([{ line: 3, reason: expect.stringMatching(/invisible characters/) }]);
    expect((await findUserByEmail(server.app.ctx.db, email))?.email).toBe(email);
  });

  it('a phone an account was made with by a code is verified from the start', async () => {
    const { phone } = await signUpSilently(server);
    expect(await claimsOf(await findUserByPhone(server.app.ctx.db, phone))).toMatchObject({
      phone_number: phone,
      phone_number_verified: true,
    });
  });
});

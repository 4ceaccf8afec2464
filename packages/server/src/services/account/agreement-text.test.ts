/** An agreement's text by code and version, for users to read before they consent. */

import { A, expectError } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { expect, it } from 'vitest';
import { insertAgreement } from '../../store/account/agreements.ts';

const { server, call } = useTestServer();
const TEXT = `${A}/agreements/text`;

it('reads the version in effect, or the one asked for, as the operator wrote it', async () => {
  const now = Date.now();
  const row = { code: 'pupils', title: '未成年人保护 / Minors', url: '/legal/pupils?version=1', created_at: now };
  await insertAgreement(server.app.ctx.db, {
    ...row,
    version: 1,
    content: 'First <b>text</b>.\n\nSecond paragraph.',
    effective_at: now - 2000,
  });
  await insertAgreement(server.app.ctx.db, { ...row, version: 2, content: 'Version two.', effective_at: now - 1000 });
  await insertAgreement(server.app.ctx.db, { ...row, version: 3, content: 'Not yet.', effective_at: now + 86_400_000 });

  const current = await call('GET', `${TEXT}?code=pupils`);
  expect(current.status).toBe(200);
  // Written without languages: each language its half of the title, over the one content.
  expect(current.body).toMatchObject({ code: 'pupils', version: 2, content: 'Version two.', title: '未成年人保护' });

  const first = await call('GET', `${TEXT}?code=pupils&version=1`);
  expect(first.body).toMatchObject({ version: 1, content: 'First <b>text</b>.\n\nSecond paragraph.' });
});

it('a version not yet in effect, an unknown code or version is E_2; a malformed version is E_1', async () => {
  expectError(await call('GET', `${TEXT}?code=pupils&version=3`), 'E_2');
  expectError(await call('GET', `${TEXT}?code=nope`), 'E_2');
  expectError(await call('GET', `${TEXT}?code=terms&version=99`), 'E_2');
  for (const version of ['0', '-1', 'x', '1.5']) {
    expectError(await call('GET', `${TEXT}?code=terms&version=${version}`), 'E_1');
  }
  expectError(await call('GET', TEXT), 'E_1');
});

/**
 * How the sign-in screen names the application a user returns to: by the `client_id` the page came
 * with, else by the registered redirect URI the address falls under most closely, never the wrong one
 * of two applications on one origin; and logos are https, so no screen shows a broken picture.
 */
import { IDENTITY_BASE } from '@edupass/protocol';
import { expectError, signInOperator } from '@edupass/test-kit/accounts';
import { registerApp, useIssuerServer } from '@edupass/test-kit/oidc-apps';
import { beforeAll, describe, expect, it } from 'vitest';

const { server, call, adoptOwnUrl } = useIssuerServer();
const SCHOOL = 'https://school.example.com';

let operator: string;
const apps: Record<'maths' | 'art' | 'other', string> = { maths: '', art: '', other: '' };

beforeAll(async () => {
  adoptOwnUrl();
  operator = (await signInOperator(server)).token;
  for (const [key, name, uri] of [
    ['maths', 'Maths', `${SCHOOL}/maths/callback`],
    ['art', 'Art', `${SCHOOL}/art/callback`],
    ['other', 'Library', 'https://library.example.com/callback'],
  ] as const) {
    apps[key] = (await registerApp(server, { name, redirect_uris: [uri] }, operator)).application.client_id;
  }
});

describe('two applications on one origin', () => {
  const check = (redirect: string, clientId?: string) =>
    call<{ app_name: string }>('POST', `${IDENTITY_BASE}/return`, {
      redirect,
      ...(clientId === undefined ? {} : { client_id: clientId }),
    });

  it('each is named by the path its redirect URI is under; at the shared root, neither', async () => {
    expect((await check(`${SCHOOL}/maths/lesson/3`)).body.app_name).toBe('Maths');
    expect((await check(`${SCHOOL}/art/gallery`)).body.app_name).toBe('Art');
    expect((await check(`${SCHOOL}/`)).body.app_name).toBe('');
  });

  it('the client_id the page came with names the application, on its own origin only', async () => {
    expect((await check(`${SCHOOL}/`, apps.art)).body.app_name).toBe('Art');
    expect((await check(`${SCHOOL}/maths/lesson/3`, apps.art)).body.app_name).toBe('Art');
    expectError(await check(`${SCHOOL}/art/gallery`, apps.other), 'E_1');
    expectError(await check(`${SCHOOL}/art/gallery`, 'no-such-client'), 'E_1');
  });
});

describe('logos', () => {
  const add = (logo_url: string) =>
    call(
      'POST',
      '/admin/applications',
      { name: 'Logo', first_party: false, confidential: true, redirect_uris: [`${SCHOOL}/cb`], logo_url },
      { token: operator },
    );

  it('an http logo is refused at registration and on a change; https, and http on a loopback host, are kept', async () => {
    const http = await add('http://cdn.example.com/logo.png');
    expectError(http, 'E_1');
    expect(JSON.stringify(http.body)).toContain('The logo URL must be https:');
    const https = await add('https://cdn.example.com/logo.png');
    expect(https.status, JSON.stringify(https.body)).toBe(200);
    const loopback = await add('http://localhost:5173/logo.png');
    expect(loopback.status, JSON.stringify(loopback.body)).toBe(200);
    expectError(
      await call(
        'POST',
        `/admin/applications/${apps.maths}`,
        { logo_url: 'http://cdn.example.com/m.png' },
        { token: operator },
      ),
      'E_1',
    );
  });
});

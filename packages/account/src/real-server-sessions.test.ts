/**
 * The sessions entry against the real server: the devices of an account, signing one out (its calls
 * then fail as signed out), and a password change that keeps this client's tokens working.
 */
import { ClientCode } from '@edupass/protocol';
import { startTestServer } from '@edupass/test-kit/harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import * as sessions from './sessions.ts';

type Server = Awaited<ReturnType<typeof startTestServer>>;
let server: Server;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server?.close());

const phone = `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const PASSWORD = 'Kestrel2718';

const newClient = () =>
  sdk.createAccountClient({
    pid: 'edupass',
    appid: 'wx-dev',
    product_code: 'edupass',
    platform: 'web',
    auth_version: 2,
    host: { tiger: server.url },
    storage: sdk.memoryTokenStore(),
  });

describe('signed-in devices through the SDK', () => {
  it('lists the devices, signs one out, and changes the password keeping this one signed in', async () => {
    const client = newClient();
    await sdk.sendRegisterCode(client, { phone_number: phone });
    await sdk.registerByPhone(client, {
      phone_number: phone,
      captcha: (await server.lastCode(phone)) ?? '',
      password: PASSWORD,
    });
    const other = newClient();
    await sdk.loginByPassword(other, { identity: phone, password: PASSWORD });

    const devices = await sessions.listSessions(client);
    expect(devices.map((d) => d.current)).toEqual([true, false]);
    await sessions.endSession(client, { id: devices[1]?.id ?? '' });
    const ended = await sdk.getProfile(other).catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(sdk.AuthError);
    expect(await sessions.listSessions(client)).toHaveLength(1);

    const mismatch = await sessions
      .changePasswordKeepingSession(client, {
        old_password: PASSWORD,
        password: 'Changed456',
        confirm_password: 'Changed457',
        end_other_sessions: true,
      })
      .catch((e: unknown) => e);
    expect(mismatch).toMatchObject({ code: ClientCode.PASSWORD_MISMATCH });
    await sessions.changePasswordKeepingSession(client, {
      old_password: PASSWORD,
      password: 'Changed456',
      confirm_password: 'Changed456',
      end_other_sessions: true,
    });
    // This client's tokens still work after the change.
    expect((await sdk.getProfile(client)).nickname).toMatch(/^用户\d{8}$/);
    await sdk.loginByPassword(newClient(), { identity: phone, password: 'Changed456' });
  });
});

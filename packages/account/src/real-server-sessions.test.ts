/**
 * The sessions entry against the real server: the devices of an account, signing one out (its calls
 * then fail as signed out), and a password change that keeps this client's tokens working.
 */
import { ClientCode } from '@edupass/protocol';
import { describe, expect, it } from 'vitest';
import * as sdk from './index.ts';
import * as sessions from './sessions.ts';
import { PASSWORD, withRealServer } from './testing/real-server.test-setup.ts';

const { newClient, signUpByPhone } = withRealServer({});

describe('signed-in devices through the SDK', () => {
  it('lists the devices, signs one out, and changes the password keeping this one signed in', async () => {
    const client = newClient();
    const { phone } = await signUpByPhone(client);
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

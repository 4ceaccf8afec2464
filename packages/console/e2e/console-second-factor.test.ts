/**
 * The operator's second factor in the console (OPERATOR_MFA=required): the operator created from the
 * CLI is sent to set up an authenticator app at the first console sign-in, then signs in with the
 * password and a code; and resets a user's second factor from the user page, after a question naming the
 * user (recorded in the audit log).
 * App codes are computed by the independent RFC 6238 helper on the server's (injected) clock.
 */
import { A, PID, signUp, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { client } from '@edupass/test-kit/http-client';
import { steppingClock } from '@edupass/test-kit/rfc6238';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  answerAppCode,
  type ConsoleRig,
  setUpAuthenticator,
  signInAsOperator,
  startConsoleRig,
} from './console-harness.ts';

/** The server's clock: moved a step on before each app code, so no code is a replay of the last. */
const { now, freshCode } = steppingClock();

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startConsoleRig({ now });
  rig.server.config.operatorMfa = 'required';
});
afterAll(() => rig?.close());

it('first sign-in sets up an app; later sign-ins take a code; a user’s second factor is reset and audited', async () => {
  const first = await signInAsOperator(rig);
  await first.getByRole('heading', { name: '设置两步验证' }).waitFor();
  const secret = (await first.locator('code.console-secret').innerText()).trim();
  await first.getByLabel('应用中的验证码').fill(freshCode(secret));
  await first.getByRole('button', { name: '确认' }).click();
  await expect.poll(() => first.getByRole('list', { name: '恢复码' }).getByRole('listitem').count()).toBe(10);
  await first.getByRole('button', { name: '进入控制台' }).click();
  await first.getByRole('navigation').first().waitFor();
  await first.context().close();

  // A user with an authenticator app, set up over the API.
  const call = client(rig.server.url);
  const user = await signUp(rig.server);
  await setUpAuthenticator(rig, user.token, freshCode);
  const userSignIn = () =>
    call(
      'POST',
      `${A}/login`,
      { identity: user.phone, password: user.password, pid: PID },
      { headers: TOKEN_SET_HEADERS },
    );
  expect((await userSignIn()).status).toBe(401);

  const page = await signInAsOperator(rig, `#/users/${user.userId}`);
  await answerAppCode(page, () => freshCode(secret));
  await page.getByRole('navigation').first().waitFor();
  // Resetting asks first, naming the user by their phone; Cancel leaves the factor in place.
  const resetting = page.getByRole('dialog', { name: new RegExp(`^重置 .+（${user.phone}） 的两步验证？$`) });
  await page.getByRole('button', { name: '重置两步验证' }).click();
  await resetting.waitFor();
  await resetting.getByRole('button', { name: '取消' }).click();
  await resetting.waitFor({ state: 'hidden' });
  expect((await userSignIn()).status).toBe(401);
  await page.getByRole('button', { name: '重置两步验证' }).click();
  await resetting.getByRole('button', { name: '重置两步验证' }).click();
  await page.getByText('两步验证已重置。').waitFor();
  expect((await userSignIn()).status).toBe(200);
  // Audited (the audit log's screen is the auditor's: console-agreements-captcha.test.ts reads it there).
  const audited = await rig.server.app.ctx.db
    .selectFrom('admin_audit')
    .select('target')
    .where('action', '=', 'user.second-factor.reset')
    .execute();
  expect(audited.map((row) => row.target)).toContain(`user:${user.userId}`);
  await page.context().close();
});

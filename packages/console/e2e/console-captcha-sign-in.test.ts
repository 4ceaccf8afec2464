/**
 * Operators are never locked out of the console by a captcha policy: the console signs in through the
 * same captcha flow as the web client. An operator with an authenticator app signs in ten times in an
 * hour under the default policy (risk: a password that passes into the second step counts as a
 * success, so no puzzle), then ten times under "always" (through EduPass's slide puzzle each time).
 */
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { steppingClock } from '@edupass/test-kit/rfc6238';
import { clearCaptchaPolicy, setCaptchaPolicy } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { shown } from '../../web/e2e/support/pages.ts';
import { readySlider, solveSlide } from '../../web/e2e/support/slide.ts';
import {
  answerAppCode,
  type ConsoleRig,
  operatorToken,
  SCREENSHOTS,
  setUpAuthenticator,
  signInAsOperator,
  startConsoleRig,
} from './console-harness.ts';

const { now, freshCode } = steppingClock();
const SIGN_INS = 10;

let rig: ConsoleRig;
let secret: string;

beforeAll(async () => {
  rig = await startConsoleRig({ now });
  secret = await setUpAuthenticator(rig, await operatorToken(rig), freshCode);
});
afterAll(() => rig?.close());

/** From the password's answer on: the app code, then the console's first screen. */
const finishWithCode = async (page: Page) => {
  await answerAppCode(page, () => freshCode(secret));
  await shown(page, page.getByRole('heading', { name: '用户', level: 1 }));
};

it(`signs in ${SIGN_INS} times in an hour under the default policy, no puzzle`, async () => {
  for (let i = 0; i < SIGN_INS; i++) {
    const page = await signInAsOperator(rig);
    try {
      await finishWithCode(page);
      expect(await readySlider(page).count(), `sign-in ${i + 1}`).toBe(0);
    } finally {
      await page.context().close();
    }
  }
}, 600_000);

it(`signs in ${SIGN_INS} times under "always", through the slide puzzle each time`, async () => {
  await setCaptchaPolicy(rig.server.app.ctx, '*', '*', 'always');
  try {
    for (let i = 0; i < SIGN_INS; i++) {
      const page = await signInAsOperator(rig);
      try {
        if (i === 0) {
          await readySlider(page).waitFor();
          await keepScreenshot(page, { path: join(SCREENSHOTS, 'console-sign-in-puzzle.zh-CN.1280.png') });
        }
        await solveSlide(page, rig.server);
        await finishWithCode(page);
      } finally {
        await page.context().close();
      }
    }
  } finally {
    await clearCaptchaPolicy(rig.server.app.ctx, '*', '*');
  }
}, 600_000);

/**
 * EduPass's own slide puzzle in Chromium, answered with the mouse and with the keyboard, and the two
 * flows the captcha guards, end to end through the overlay: an SMS code send and login/security.
 */

import { launchBrowser } from '@edupass/test-kit/browser';
import { startTestServer, type TestServer } from '@edupass/test-kit/harness';
import { client } from '@edupass/test-kit/http-client';
import type { CaptchaTables } from '@edupass/test-kit/server';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CaptchaOutcome, openCaptchaPage, runCaptcha } from './support/captcha-page.ts';
import { newestAnswer, readySlider, typeAnswer } from './support/slide.ts';

let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startTestServer({
    captcha: {
      ...(await import('../../server/src/config/config.ts')).loadConfig({}).captcha,
      policies: { '*:*': 'always' },
    },
  });
  browser = await launchBrowser();
  page = await openCaptchaPage(browser, server.url);
}, 60_000);
// A failed test must not leave its overlay over the next one.
afterEach(() => page.keyboard.press('Escape'));
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let seq = 0;
const newPhone = () => `135${String(Date.now() % 1e6).padStart(6, '0')}${String(seq++).padStart(2, '0')}`;

/** Drags the handle like a hand: eased, with a little tremor, a frame at a time. */
const dragTo = async (answerX: number) => {
  const handle = readySlider(page);
  await handle.waitFor();
  const box = await handle.boundingBox();
  if (!box) throw new Error('no slider');
  const max = Number(await handle.getAttribute('aria-valuemax'));
  const track = 300 - 40;
  const distance = (answerX / max) * track;
  const startX = box.x + box.width / 2;
  const startY = box.y + box.height / 2;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  const frames = 45;
  for (let i = 1; i <= frames; i++) {
    const p = i / frames;
    const eased = p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2;
    await page.mouse.move(startX + eased * distance, startY + Math.sin(i / 3) * 1.5);
    await page.waitForTimeout(14);
  }
  await page.mouse.move(startX + distance, startY + 1);
  await page.mouse.up();
};

const outcomeOf = async (running: Promise<CaptchaOutcome>) => {
  const outcome = await running;
  expect(outcome).toMatchObject({ kind: 'success', rule: 'SLIDE' });
  return outcome.ticket ?? '';
};

describe('the slide puzzle in the browser', () => {
  it('is a labelled slider that a mouse drag solves', async () => {
    const running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
    await readySlider(page).waitFor();
    const handle = page.getByRole('slider', { name: 'drag the slider below to complete verification' });
    expect(await handle.getAttribute('aria-valuenow')).toBe('0');
    expect(await handle.getAttribute('aria-valuemax')).toBe('252');
    expect(await page.locator('[data-edupass-captcha="piece"]').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await dragTo(await newestAnswer(server));
    expect((await outcomeOf(running)).length).toBeGreaterThan(20);
  });

  it('is solved with the keyboard alone', async () => {
    const running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
    const handle = readySlider(page);
    await handle.waitFor();
    const answer = await newestAnswer(server);
    await typeAnswer(handle, answer);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(answer);
    await handle.press('Enter');
    await outcomeOf(running);
  });

  it("takes the smallest answer typed at a person's pace, which the shared helper keeps to", async () => {
    // Seven PageUps 30 ms apart take about 200 ms, which the server refuses as no person's (too fast).
    const running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
    const handle = readySlider(page);
    await handle.waitFor();
    const smallest = 70;
    await server.app.ctx.db
      .withTables<CaptchaTables>()
      .updateTable('captcha_challenges')
      .set({ answer_x: smallest })
      .where('used_at', 'is', null)
      .execute();
    await typeAnswer(handle, smallest);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(smallest);
    await handle.press('Enter');
    // A refused answer is said in the puzzle's live region, and the flow waits for another try.
    const refused = page
      .locator('[data-edupass-captcha="status"]')
      .filter({ hasText: /\S/ })
      .waitFor({ timeout: 60_000 })
      .then(
        async () => `refused: ${await page.locator('[data-edupass-captcha="status"]').textContent()}`,
        () => 'neither taken nor refused in 60 s',
      );
    expect(await Promise.race([outcomeOf(running).then(() => 'taken'), refused])).toBe('taken');
  });

  it('says a wrong drop out loud and offers a new puzzle', async () => {
    const running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
    await readySlider(page).waitFor();
    const answer = await newestAnswer(server);
    await dragTo(answer > 120 ? answer - 40 : answer + 40);
    await page
      .locator('[data-edupass-captcha="status"]', {
        hasText: 'The piece did not fit the gap. Try again with the new puzzle.',
      })
      .waitFor();
    await readySlider(page).waitFor();
    await dragTo(await newestAnswer(server));
    await outcomeOf(running);
  });
});

describe('when the puzzle cannot be answered as shown', () => {
  it('does not send an expired puzzle: it says so and offers a new one', async () => {
    const answersSent: string[] = [];
    const onRequest = (request: Request) => {
      if (request.url().endsWith('/captcha/slide/verify')) answersSent.push(request.url());
    };
    page.on('request', onRequest);
    const ttl = server.config.captcha.challengeTtlSeconds;
    server.config.captcha.challengeTtlSeconds = 1;
    let running: Promise<CaptchaOutcome>;
    try {
      running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
      await page.locator('[data-edupass-captcha="status"]', { hasText: 'The puzzle has expired.' }).waitFor();
    } finally {
      server.config.captcha.challengeTtlSeconds = ttl;
      page.off('request', onRequest);
    }
    expect(answersSent).toEqual([]);
    expect(await page.locator('[role="slider"]').getAttribute('aria-disabled')).toBe('true');
    const retry = page.getByRole('button', { name: 'New puzzle' });
    expect(await retry.evaluate((button) => button === document.activeElement)).toBe(true);
    await retry.click();
    await readySlider(page).waitFor();
    expect(await retry.isHidden()).toBe(true);
    await dragTo(await newestAnswer(server));
    await outcomeOf(running);
  });

  it('keeps the overlay through a network failure and tries again when asked', async () => {
    await page.route('**/captcha/slide/challenge', (route) => route.abort('connectionrefused'), { times: 1 });
    const running = runCaptcha(page, { pid: 'edupass', identity: newPhone(), scene: 'login' });
    await page
      .locator('[data-edupass-captcha="status"]', { hasText: 'Network error. Check the connection and try again.' })
      .waitFor();
    await page.getByRole('button', { name: 'New puzzle' }).click();
    await readySlider(page).waitFor();
    await dragTo(await newestAnswer(server));
    await outcomeOf(running);
  });
});

describe('through the overlay, end to end', () => {
  it('an SMS code send, then a sign-in with login/security', async () => {
    const phone = newPhone();
    const password = 'Kestrel2718';

    const smsTicket = runCaptcha(page, { pid: 'edupass', identity: phone, scene: 'register' });
    await readySlider(page).waitFor();
    await dragTo(await newestAnswer(server));
    const ticket = await outcomeOf(smsTicket);
    const sent = await page.evaluate(
      async ({ phone, ticket }) => {
        const response = await fetch('/tiger/v3/web/accounts/captcha/register/phone/with-agreement', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Captcha-Ticket': ticket },
          body: JSON.stringify({ phone_number: phone, pid: 'edupass' }),
        });
        return response.status;
      },
      { phone, ticket },
    );
    expect(sent).toBe(204);
    const code = await server.lastCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const registered = await client(server.url)('POST', '/tiger/v3/web/accounts/register/phone/with-agreement', {
      phone_number: phone,
      captcha: code,
      password,
      agreement_ids: [-1],
      pid: 'edupass',
    });
    expect(registered.status).toBe(200);

    const loginTicket = runCaptcha(page, { pid: 'edupass', identity: phone, scene: 'login' });
    await readySlider(page).waitFor();
    await dragTo(await newestAnswer(server));
    const signIn = await page.evaluate(
      async ({ phone, password, ticket }) => {
        const response = await fetch('/tiger/v3/web/accounts/login/security', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Captcha-Ticket': ticket },
          body: JSON.stringify({ identity: phone, password, pid: 'edupass' }),
        });
        return { status: response.status, body: (await response.json()) as { auth?: { token?: unknown } } };
      },
      { phone, password, ticket: await outcomeOf(loginTicket) },
    );
    expect(signIn.status).toBe(200);
    expect(typeof signIn.body.auth?.token).toBe('string');
  });
});

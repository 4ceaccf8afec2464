/** Answers EduPass's slide puzzle with the keyboard, reading the gap where only the server keeps it. */

import type { TestServer } from '@edupass/test-kit/harness';
import type { CaptchaTables } from '@edupass/test-kit/server';
import type { Page } from 'playwright-core';

/** The gap of the newest challenge, read where only the server keeps it. */
export const newestAnswer = async (server: TestServer): Promise<number> => {
  const row = await server.app.ctx.db
    .withTables<CaptchaTables>()
    .selectFrom('captcha_challenges')
    .select('answer_x')
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.answer_x;
};

/** The slider once a puzzle is on it. */
export const readySlider = (page: Page) => page.locator('[role="slider"]:not([aria-disabled])');

export const solveSlide = async (page: Page, server: TestServer): Promise<void> => {
  const handle = readySlider(page);
  await handle.waitFor();
  const answer = await newestAnswer(server);
  await handle.focus();
  for (let x = 0; x + 10 <= answer; x += 10) await handle.press('PageUp', { delay: 30 });
  for (let i = 0; i < answer % 10; i++) await handle.press('ArrowRight', { delay: 30 });
  await handle.press('Enter');
};

/** Answers EduPass's slide puzzle with the keyboard, reading the gap where only the server keeps it. */

import type { TestServer } from '@edupass/test-kit/harness';
import type { CaptchaTables } from '@edupass/test-kit/server';
import type { Locator, Page } from 'playwright-core';

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

/**
 * The server refuses a keyboard answer given in under 250 ms (services/captcha/trajectory.ts), as no
 * person presses seven keys that fast: the presses are spread over at least this long, whatever the
 * answer (the smallest, 70, takes seven PageUps).
 */
const KEYBOARD_ANSWER_MS = 500;

/** Moves the focused slider's handle to `answer` with PageUp (10) and ArrowRight (1), at a person's pace. */
export const typeAnswer = async (handle: Locator, answer: number): Promise<void> => {
  const keys = [
    ...Array<string>(Math.floor(answer / 10)).fill('PageUp'),
    ...Array<string>(answer % 10).fill('ArrowRight'),
  ];
  const delay = Math.max(30, Math.ceil(KEYBOARD_ANSWER_MS / Math.max(1, keys.length - 1)));
  await handle.focus();
  for (const key of keys) await handle.press(key, { delay });
};

export const solveSlide = async (page: Page, server: TestServer): Promise<void> => {
  const handle = readySlider(page);
  await handle.waitFor();
  await typeAnswer(handle, await newestAnswer(server));
  await handle.press('Enter');
};

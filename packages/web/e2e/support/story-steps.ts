/**
 * Steps the people's stories share: a screen checked (axe, nothing wider than the viewport) and
 * photographed for the gallery, the sign-up and the password sign-in in the page's language, the
 * agreements gate, a text with its placeholders filled, and a tap target's size.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { inputLabelled, newCodeFor } from './account-steps.ts';
import type { AppUnderTest } from './app-server.ts';
import { seriousViolations } from './axe.ts';
import type { LOCALES } from './matrix.ts';
import { expectScreen, type TestPage } from './pages.ts';

export type Text = (typeof LOCALES)[number]['text'];
export type Key = keyof Text;

const SHOTS = join(import.meta.dirname, '..', 'screenshots');

/** The text of `key` with its placeholders filled. */
export const say = (text: Text, key: Key, params: Record<string, string | number> = {}) =>
  text[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

/** No serious axe finding, nothing wider than the viewport; then a full-page screenshot `name`.png. */
export const checkScreen = async (page: Page, name: string) => {
  await page.evaluate(() => document.fonts.ready);
  expect(await seriousViolations(page), name).toEqual([]);
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits the width`).toBeLessThanOrEqual(
    width,
  );
  mkdirSync(SHOTS, { recursive: true });
  await keepScreenshot(page, { path: join(SHOTS, `${name}.png`), fullPage: true });
};

/** What a person's hands do on a page: first-week-steps.ts `hands` counts them; `plainHands` does not. */
export interface Hands {
  tap(target: Locator): Promise<void>;
  type(target: Locator, value: string): Promise<void>;
  choose(target: Locator, option: { label: string } | string): Promise<void>;
}

export const plainHands: Hands = {
  tap: (target) => target.click(),
  type: (target, value) => target.fill(value),
  choose: async (target, option) => {
    await target.selectOption(option);
  },
};

/**
 * From the first screen, in the page's language: "Sign up", the phone, the code from the SMS outbox,
 * the password, the age question (an adult's month unless told), the agreements ticked; answers once
 * the account centre shows. `hand` does the person's part (opening the site is not one).
 */
export const signUpInPage = async (
  app: AppUnderTest,
  tab: TestPage,
  text: Text,
  phone: string,
  password: string,
  {
    born = { year: '1990', month: '05' },
    hand = plainHands,
  }: { born?: { year: string; month: string }; hand?: Hands } = {},
) => {
  const { page } = tab;
  await page.goto(app.server.url);
  await expectScreen(page, text['signIn.title']);
  await hand.tap(page.getByRole('link', { name: text['signIn.toSignUp'] }));
  await expectScreen(page, text['signUp.title']);
  await hand.type(inputLabelled(tab, text['form.phone']), phone);
  await hand.tap(page.getByRole('button', { name: text['code.send'] }));
  await hand.type(inputLabelled(tab, text['form.code']), await newCodeFor(app, phone));
  await hand.type(inputLabelled(tab, text['form.password']), password);
  await hand.choose(page.getByRole('combobox', { name: text['age.year'], exact: true }), born.year);
  await hand.choose(page.getByRole('combobox', { name: text['age.month'], exact: true }), born.month);
  await hand.tap(page.getByLabel(text['agree.prefix']));
  await hand.tap(page.getByRole('button', { name: text['signUp.submit'], exact: true }));
  await expectScreen(page, text['account.profile']);
};

/** On the sign-in screen: the password tab, the identity and password, "Sign in". */
export const signInWithPassword = async (tab: TestPage, text: Text, identity: string, password: string) => {
  const { page } = tab;
  await expectScreen(page, text['signIn.title']);
  await page.getByRole('tab', { name: text['signIn.tabPassword'] }).click();
  await inputLabelled(tab, text['form.identity']).fill(identity);
  await inputLabelled(tab, text['form.password']).fill(password);
  await page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
};

/**
 * The agreements gate every first sign-in passes (the test accounts signed none), then `landing`: the
 * account centre (for a pupil on the card's password, its password form).
 */
export const acceptAgreements = async (page: Page, text: Text, landing: Key = 'account.profile') => {
  await expectScreen(page, text['gate.title']);
  await page.getByRole('button', { name: text['gate.submit'] }).click();
  await expectScreen(page, text[landing]);
};

/** A tap target a child's or a teacher's finger hits: at least 44 px high and wide. */
export const expectTappable = async (target: Locator, what: string) => {
  const box = await target.boundingBox();
  expect(box?.height ?? 0, `${what} is 44 px high`).toBeGreaterThanOrEqual(44);
  expect(box?.width ?? 0, `${what} is 44 px wide`).toBeGreaterThanOrEqual(44);
};

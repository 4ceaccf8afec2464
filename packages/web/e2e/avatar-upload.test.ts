/**
 * Changing the profile picture in Chromium against the real server: a PNG made here is chosen, cropped
 * with the keyboard and the mouse, saved, served from /avatars/ as a 256×256 WebP, and kept after a
 * reload; what is not a picture is refused at the field; the server's refusal and a network failure
 * (with its retry) are said at the field; the dialog passes axe in both languages, on a phone and a desktop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keepScreenshot } from '@edupass/test-kit/browser';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import enMore from '../src/i18n/locales/en-more.ts';
import zhCN from '../src/i18n/locales/zh-CN.ts';
import zhCNMore from '../src/i18n/locales/zh-CN-more.ts';
import { phoneNumbers, signUpByPhone } from './support/account-steps.ts';
import { type AppUnderTest, startApp } from './support/app-server.ts';
import { seriousViolations } from './support/axe.ts';
import { expectScreen, openPage, type TestPage } from './support/pages.ts';

const newPhone = phoneNumbers('1580');
const SCREENSHOTS = `${import.meta.dirname}/screenshots`;
const SERVED = /\/avatars\/[^/]+\.webp$/;

/** A 600×400 PNG: an orange ground with a blue disc on the left, so a crop shows where it was made. */
const makePng = () =>
  sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 240, g: 140, b: 40 } } })
    .composite([
      {
        input: Buffer.from('<svg width="600" height="400"><circle cx="150" cy="200" r="120" fill="#1d4ed8"/></svg>'),
      },
    ])
    .png()
    .toBuffer();

let app: AppUnderTest;
let png: Buffer;

beforeAll(async () => {
  [app, png] = await Promise.all([startApp(), makePng()]);
});
afterAll(async () => {
  await app?.close();
});

const fileInput = (page: Page) => page.locator('.avatar-field input[type="file"]');
const choosePng = (page: Page) => fileInput(page).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
const chooseText = (page: Page) =>
  fileInput(page).setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture\n') });

/** The src of the picture in the profile field and in the account centre's side bar, once both have loaded. */
const loadedPictures = async (page: Page) => {
  const images = [page.locator('.avatar-field .lazy-image img'), page.locator('.account-side .who img')];
  await expect
    .poll(() =>
      Promise.all(images.map((image) => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))),
    )
    .toEqual([256, 256]);
  return Promise.all(images.map((image) => image.getAttribute('src')));
};

const signUp = async (tab: TestPage) => {
  await signUpByPhone(app, tab, newPhone(), 'Picture2718q');
  await tab.page.getByRole('link', { name: 'Profile' }).click();
  await expectScreen(tab.page, 'Profile');
};

describe('the profile picture, in English on a desktop', () => {
  let tab: TestPage;
  const text = { ...enMore, ...en.text };
  beforeAll(async () => {
    tab = await openPage(app.browser, { locale: 'en', width: 1280, height: 800 });
  });
  afterAll(() => tab?.close());

  test('a text file named .png is refused at the field, before any upload or dialog', async () => {
    const { page } = tab;
    await signUp(tab);
    await chooseText(page);
    await expect.poll(() => page.locator('.avatar-field [role="alert"]').textContent()).toBe(text['avatar.notPicture']);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const described = await page
      .getByRole('button', { name: text['avatar.change'] })
      .evaluate((button) => button.getAttribute('aria-describedby') ?? '');
    expect(await page.locator(`[id="${described.split(' ')[1]}"]`).textContent()).toBe(text['avatar.notPicture']);
  });

  test('a PNG is cropped with the keyboard and the mouse, saved, served from /avatars/ and shown at once', async () => {
    const { page } = tab;
    await choosePng(page);
    const dialog = page.getByRole('dialog', { name: text['crop.title'] });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, { path: `${SCREENSHOTS}/avatar-crop-en-1280.png` });

    const frame = dialog.getByRole('application', { name: text['crop.area'] });
    const picture = frame.locator('img');
    const zoom = dialog.getByRole('slider', { name: text['crop.zoom'] });
    // The frame has the focus when the dialog opens: + zooms, arrows move.
    expect(await frame.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    expect(Number(await zoom.inputValue())).toBeCloseTo(1.3);
    const before = await picture.evaluate((img: HTMLImageElement) => Number.parseFloat(img.style.left));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const moved = await picture.evaluate((img: HTMLImageElement) => Number.parseFloat(img.style.left));
    expect(moved).toBeCloseTo(before + 10);
    await page.keyboard.press('-');
    expect(Number(await zoom.inputValue())).toBeCloseTo(1.2);
    // The slider is keyboard-operable too.
    await zoom.focus();
    await page.keyboard.press('ArrowRight');
    expect(Number(await zoom.inputValue())).toBeCloseTo(1.21);
    // Dragging to the left moves the picture left.
    const box = await frame.boundingBox();
    if (!box) throw new Error('the crop frame is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 30, box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    expect(await picture.evaluate((img: HTMLImageElement) => Number.parseFloat(img.style.left))).toBeLessThan(moved);

    await dialog.getByRole('button', { name: text['crop.save'] }).click();
    await dialog.waitFor({ state: 'detached' });
    const [inField, inSide] = await loadedPictures(page);
    await keepScreenshot(page.locator('.avatar-field'), { path: `${SCREENSHOTS}/avatar-field-en-1280.png` });
    expect(inField).toMatch(SERVED);
    expect(inSide).toBe(inField);
    await page.getByText(text['avatar.saved']).waitFor();
    // The picture URL, folded away, now names the uploaded picture.
    await page.getByText(text['avatar.useUrl']).click();
    expect(await page.getByLabel(text['profile.avatarUrl']).inputValue()).toBe(inField);

    await page.goto(app.server.url);
    await expectScreen(page, 'Profile');
    expect(await loadedPictures(page)).toEqual([inField, inField]);
  });

  test("the server's refusal is said at the field; a network failure offers a retry that sends the crop again", async () => {
    const { page } = tab;
    const [previous] = await loadedPictures(page);
    const route = '**/tiger/v3/web/accounts/avatar';
    // What reaches the real server is not a picture: its refusal is shown.
    await page.route(route, (request) =>
      request.continue({ postData: JSON.stringify({ image: 'data:image/png;base64,bm90IGEgcGljdHVyZQ==' }) }),
    );
    await choosePng(page);
    const dialog = page.getByRole('dialog', { name: text['crop.title'] });
    await dialog.getByRole('button', { name: text['crop.save'] }).click();
    const alert = page.locator('.avatar-field [role="alert"]');
    await expect.poll(() => alert.textContent()).toBe(text['avatar.refused']);
    expect(await page.getByRole('button', { name: text['avatar.retry'] }).count()).toBe(0);
    expect(await loadedPictures(page)).toEqual([previous, previous]);

    await page.unroute(route);
    await page.route(route, (request) => request.abort('internetdisconnected'));
    await choosePng(page);
    await dialog.getByRole('button', { name: text['crop.save'] }).click();
    await expect.poll(() => alert.textContent()).toBe(en.errors.REQUEST_ERROR);
    await page.unroute(route);
    await page.getByRole('button', { name: text['avatar.retry'] }).click();
    await page.getByText(text['avatar.saved']).waitFor();
    expect(await alert.count()).toBe(0);
    const [again] = await loadedPictures(page);
    expect(again).toMatch(SERVED);
    // The crop differs from the first (zoomed and moved), so the stored picture is a new one.
    expect(again).not.toBe(previous);
  });
});

describe('the profile picture, in Chinese on a phone', () => {
  let tab: TestPage;
  const text = { ...zhCNMore, ...zhCN.text };
  beforeAll(async () => {
    tab = await openPage(app.browser, { locale: 'en', width: 390, height: 844 });
  });
  afterAll(() => tab?.close());

  test('with no picture the initials stand in; a text file or one over 20 MB is refused in Chinese', async () => {
    const { page } = tab;
    await signUp(tab);
    await page.getByRole('button', { name: 'Language: 中文' }).click();
    await expectScreen(page, text['profile.title']);
    await page.locator('.avatar-field .avatar-fallback').waitFor();
    expect(await page.locator('.avatar-field img').count()).toBe(0);
    await chooseText(page);
    const alert = page.locator('.avatar-field [role="alert"]');
    await expect.poll(() => alert.textContent()).toBe(text['avatar.notPicture']);
    // Over 20 MB: refused unread.
    // As a file on disk: the run's Chromium is reached over Playwright's WebSocket, which streams a
    // file path in chunks, where a 21 MB buffer would go as one message.
    const big = Buffer.alloc(21 * 1024 * 1024);
    png.copy(big);
    const huge = join(mkdtempSync(join(tmpdir(), 'edupass-avatar-')), 'huge.png');
    writeFileSync(huge, big);
    await fileInput(page).setInputFiles(huge, { timeout: 60_000 });
    rmSync(dirname(huge), { recursive: true, force: true });
    await expect.poll(() => alert.textContent()).toBe(text['avatar.tooLarge']);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test('the crop dialog passes axe and fits the phone; Cancel keeps the old picture', async () => {
    const { page } = tab;
    await choosePng(page);
    const dialog = page.getByRole('dialog', { name: text['crop.title'] });
    await dialog.waitFor();
    // The dialog's style sheet comes with its chunk: on a loaded machine it may land a moment after the
    // dialog is in the page. Wait until the dialog is laid out within the phone, then check it.
    const fits = async () => {
      const box = await dialog.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 390;
    };
    await expect.poll(fits, { timeout: 20_000 }).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    for (const name of [text['crop.cancel'], text['crop.save']]) await dialog.getByRole('button', { name }).waitFor();
    await keepScreenshot(page, { path: `${SCREENSHOTS}/avatar-crop-zh-CN-390.png` });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Nothing was uploaded: the field goes back to the initials (the chosen file's preview goes with the dialog).
    await expect.poll(() => page.locator('.avatar-field img').count(), { timeout: 20_000 }).toBe(0);
    await page.locator('.avatar-field .avatar-fallback').waitFor();
    expect(await page.locator('.avatar-field [role="alert"]').count()).toBe(0);
  });
});

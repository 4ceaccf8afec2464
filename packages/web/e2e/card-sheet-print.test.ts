/**
 * The login cards as a school prints them: a teacher of a class of 40 opens the class in the web
 * client, prints the whole class's cards and the sheet is printed to PDF by Chromium (`page.pdf`, A4).
 * The PDF is then read back as paper would be: five pages of eight cards; each card's QR code,
 * cropped from the page rendered at 150 dpi (pdftoppm), decodes to a badge link that signs its own
 * pupil in; and the text layer (pdftotext -layout) holds each pupil's name, username, initial
 * password and guardian code whole on one line, not broken a character per line.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PupilCredentials, routes } from '@edupass/protocol';
import { client, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { CHINESE_NAMES, eduSteps } from '@edupass/test-kit/edu-steps';
import { decodeQrPixels } from '@edupass/test-kit/qr-cards';
import { PNG } from 'pngjs';
import { afterAll, expect, test } from 'vitest';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { acceptAgreements, signInWithPassword } from './support/story-steps.ts';

const app = withApp();
const scratch = mkdtempSync(join(tmpdir(), 'edupass-cards-pdf-'));
const SHOTS = join(import.meta.dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A4 as the sheet lays it out (services/edu/school/cards.ts): 10 mm margins, 2 columns, 66 mm cards, 4 mm gaps. */
const DPI = 150;
const mm = (n: number) => Math.round((n / 25.4) * DPI);
const CARD = { width: 93, height: 66, gap: 4, margin: 10 };

/** The QR codes of a rendered page, card by card (left to right, top to bottom); null where none decodes. */
const qrCodesOf = (png: PNG) =>
  [0, 1, 2, 3].flatMap((row) =>
    [0, 1].map((column) => {
      const x = mm(CARD.margin + column * (CARD.width + CARD.gap));
      const y = mm(CARD.margin + row * (CARD.height + CARD.gap));
      const [w, h] = [mm(CARD.width), mm(CARD.height)];
      const cell = new PNG({ width: w, height: h });
      PNG.bitblt(png, cell, x, y, Math.min(w, png.width - x), Math.min(h, png.height - y), 0, 0);
      return decodeQrPixels(new Uint8ClampedArray(cell.data), w, h);
    }),
  );

test.each(LOCALES)(
  '$locale: 40 cards print on five A4 pages, every QR code decodes from the paper and every detail reads whole',
  async ({ locale, text }) => {
    const { server } = app;
    const call = client(server.url);
    const steps = eduSteps(server, call);
    const schoolId = await steps.addSchool(`Print ${locale}`);
    const teacher = await steps.approvedTeacher(schoolId);
    const className = locale === 'en' ? 'Year 3 Class 2' : '三年级二班';
    const classId = await steps.createClass(teacher, schoolId, className);
    const names = [
      ...CHINESE_NAMES,
      '欧阳明月',
      '司马小龙',
      '诸葛晓晓',
      '上官婉儿',
      '王一',
      '李二',
      '张三丰',
      '赵四',
      '孙五',
      '周六',
    ];
    const pupils: PupilCredentials[] = await steps.createPupils(teacher, classId, names.slice(0, 40));
    expect(pupils).toHaveLength(40);

    let pdf: Buffer = Buffer.alloc(0);
    await inPage(app.browser, { locale, width: 1280, height: 900 }, async (tab) => {
      const { page } = tab;
      await page.goto(server.url);
      await signInWithPassword(tab, text, teacher.phone, teacher.password);
      await acceptAgreements(page, text);
      await page.goto(`${server.url}/teach/classes/${classId}`);
      await expectScreen(page, className);
      await page.getByRole('button', { name: text['teach.printAll'] }).click();
      const sheetLink = page.getByRole('link', { name: new RegExp(String(40)) });
      const [sheet] = await Promise.all([page.context().waitForEvent('page'), sheetLink.click()]);
      await sheet.locator('.card').nth(39).waitFor();
      pdf = await sheet.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
      await sheet.close();
      expect(tab.errors).toEqual([]);
    });

    const file = join(scratch, `cards-${locale}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', String(DPI), '-png', file, join(scratch, `page-${locale}`)]);
    const pages = readdirSync(scratch)
      .filter((name) => name.startsWith(`page-${locale}`) && name.endsWith('.png'))
      .sort();
    expect(pages).toHaveLength(5);
    copyFileSync(join(scratch, pages[0] ?? ''), join(SHOTS, `card-sheet-printed.${locale}.png`));
    const codes = pages.flatMap((name) => qrCodesOf(PNG.sync.read(readFileSync(join(scratch, name)))));
    expect(codes.filter((code) => code === null)).toEqual([]);
    expect(new Set(codes).size).toBe(40);
    for (const code of codes) expect(code?.startsWith(`${server.url}/badge#`)).toBe(true);

    // Every detail whole on a line of the text layer: a value broken across lines is not found.
    const lines = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\n');
    const onOneLine = (value: string) => lines.some((line) => line.includes(value));
    for (const pupil of pupils) {
      for (const value of [pupil.username, pupil.password]) expect(onOneLine(value), value).toBe(true);
    }
    for (const name of names.slice(0, 40)) expect(onOneLine(name), name).toBe(true);
    // Guardian codes: eight capitals and digits without look-alikes (services/edu/codes.ts), one a card.
    const guardianCodes = lines.join('\n').match(/(?<![A-Za-z0-9])[A-HJ-NP-Z2-9]{8}(?![A-Za-z0-9])/g) ?? [];
    expect(new Set(guardianCodes).size).toBe(40);

    // A code read off the paper signs its pupil in (the first card: the pupil first in the class).
    const first = codes[0] ?? '';
    const badge = decodeURIComponent(new URL(first).hash.slice(1));
    const signedIn = await call('POST', routes.signInByBadge.path, { badge }, { headers: TOKEN_SET_HEADERS });
    expect(signedIn.status).toBe(200);
  },
  300_000,
);

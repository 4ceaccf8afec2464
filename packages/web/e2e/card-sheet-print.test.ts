/**
 * The login cards as a school prints them: a teacher of a class of 40 opens the class in the web
 * client, prints the whole class's cards and the sheet is printed to PDF by Chromium (`page.pdf`, A4).
 * The PDF is then read back as paper would be: five pages of eight cards; each card's QR code,
 * cropped from the page rendered at 150 dpi (pdftoppm), decodes to a badge link that signs its own
 * pupil in; and the text layer (pdftotext -layout) holds each pupil's name, username, initial
 * password and guardian code whole on one line, not broken a character per line, and on every card
 * the address a pupil types to sign in (the site's host, no scheme), under its label.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PupilCredentials, routes } from '@edupass/protocol';
import { client, TOKEN_SET_HEADERS } from '@edupass/test-kit/accounts';
import { eduSteps, FORTY_NAMES } from '@edupass/test-kit/edu-steps';
import { afterAll, expect, test } from 'vitest';
import { cardTexts } from '../../server/src/services/edu/school/card-texts.ts';
import { withApp } from './support/app-server.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { guardianCodesIn, readPrintedSheet } from './support/printed-cards.ts';
import { acceptAgreements, signInWithPassword } from './support/story-steps.ts';

const app = withApp();
const scratch = mkdtempSync(join(tmpdir(), 'edupass-cards-pdf-'));
const SHOTS = join(import.meta.dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const names = FORTY_NAMES;
    const pupils: PupilCredentials[] = await steps.createPupils(teacher, classId, names);
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

    const printed = readPrintedSheet(pdf, scratch, `cards-${locale}`);
    expect(printed.pages).toHaveLength(5);
    copyFileSync(printed.pages[0] ?? '', join(SHOTS, `card-sheet-printed.${locale}.png`));
    const { codes } = printed;
    expect(codes.filter((code) => code === null)).toEqual([]);
    expect(new Set(codes).size).toBe(40);
    for (const code of codes) expect(code?.startsWith(`${server.url}/badge#`)).toBe(true);

    // Every detail whole on a line of the text layer: a value broken across lines is not found.
    for (const pupil of pupils) {
      for (const value of [pupil.username, pupil.password]) expect(printed.onOneLine(value), value).toBe(true);
    }
    for (const name of names) expect(printed.onOneLine(name), name).toBe(true);
    // The address to type, on every card, whole after its label (the site's host: no scheme to type).
    const address = new URL(server.url).host;
    const label = cardTexts[locale].site;
    const addresses = printed.lines.flatMap((line) => [...line.matchAll(new RegExp(`${label}\\s+(\\S+)`, 'g'))]);
    expect(addresses.map((m) => m[1])).toEqual(Array.from({ length: 40 }, () => address));
    // Guardian codes, one a card.
    expect(new Set(guardianCodesIn(printed.lines)).size).toBe(40);

    // A code read off the paper signs its pupil in (the first card: the pupil first in the class).
    const first = codes[0] ?? '';
    const badge = decodeURIComponent(new URL(first).hash.slice(1));
    const signedIn = await call('POST', routes.signInByBadge.path, { badge }, { headers: TOKEN_SET_HEADERS });
    expect(signedIn.status).toBe(200);
  },
  300_000,
);

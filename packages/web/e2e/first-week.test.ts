/**
 * A school's first week, lived end to end in Chromium from a fresh server, through the product's own
 * screens only (the SMS outbox stands in for the phones): the operator adds the school and records
 * its agreement in the console; a teacher signs up on a classroom tablet (768×1024), finds the school
 * from the account centre and asks to teach; the operator approves; the teacher opens 三年级二班 by
 * choosing the grade, adds 40 pupils from an .xlsx workbook (write-excel-file) and a CSV saved as
 * Chinese Excel does (GBK, with a repeated row and a blank line, both reported by the preview), and
 * prints the class's cards to PDF (`page.pdf`). The PDF is read back as paper: every page rendered
 * (pdftoppm), every QR code decoded, every card's username, password and guardian code whole on one
 * line of its text (pdftotext -layout), the same as the teacher was shown. One pupil signs in by the
 * first card's QR code, another by typing the second card's details, and each chooses a password; a
 * mother on a phone (390×844) signs up and links her child with the card's guardian code; the year
 * ends with the class promoted and archived on the teacher's screen. Taps, keystrokes and seconds
 * from "approved" to "cards printed" are counted and printed in one line; the PDF, its first page and
 * the screens are kept in e2e/screenshots (the gallery). zh-CN and en, each on its own fresh server.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nextPhone } from '@edupass/test-kit/accounts';
import { keepScreenshot } from '@edupass/test-kit/browser';
import { FORTY_NAMES } from '@edupass/test-kit/edu-steps';
import { gbkBytes } from '@edupass/test-kit/gbk';
import { afterAll, describe, expect, test } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { SCREENSHOTS, withConsoleRig } from '../../console/e2e/console-harness.ts';
import { inputLabelled } from './support/account-steps.ts';
import {
  askToTeach,
  chooseOwnPassword,
  hands,
  labelsOf,
  openClass,
  operatorAddsSchool,
  operatorApproves,
  operatorRecordsAgreement,
  PHONE,
  shownDetails,
  TABLET,
  teacherOpensTeaching,
  WAIT,
} from './support/first-week-steps.ts';
import { LOCALES } from './support/matrix.ts';
import { expectScreen, inPage } from './support/pages.ts';
import { cardsIn, readPrintedSheet } from './support/printed-cards.ts';
import { checkScreen, expectTappable, say, signUpInPage } from './support/story-steps.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const scratch = mkdtempSync(join(tmpdir(), 'edupass-first-week-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(LOCALES)('$locale', ({ locale, text }) => {
  const rigOf = withConsoleRig();

  test('the operator adds a school, a teacher comes in, 40 pupils get cards that print and read, a mother links, the year ends', async () => {
    const rig = rigOf();
    const { server } = rig;
    const en = locale === 'en';
    const school = en ? 'Starlight Primary School' : '星光实验小学';
    const className = en ? 'Year 3 Class 2' : '三年级二班';
    const shot = (screen: string, device = 'tablet') => `first-week-${screen}.${locale}.${device}`;
    const [teacher, teacherName] = [{ phone: nextPhone(), password: 'Lantern5821' }, en ? 'Ms Wang' : '王老师'];
    const tablet = { locale, ...TABLET };

    // The operator adds the school and records its agreement (the console, at a desk).
    const desk = await operatorAddsSchool(rig, locale, school);
    await operatorRecordsAgreement(desk, locale, school);
    await keepScreenshot(desk, { path: join(SCREENSHOTS, `console-first-week-school.${locale}.png`), fullPage: true });

    const hand = hands();
    let clock = 0;
    let counted = { taps: 0, keys: 0 };
    const xlsxNames = FORTY_NAMES.slice(0, 25);
    const csvNames = FORTY_NAMES.slice(25);
    let shownToTeacher: [string, string, string][] = [];
    let pdf: Buffer = Buffer.alloc(0);

    await inPage(rig.browser, tablet, async (tab) => {
      const { page } = tab;
      // A teacher signs up and, from the account centre, finds the school and asks to teach there.
      const search = en ? 'Starlight' : '星光';
      await askToTeach(rig, tab, text, { ...teacher, name: teacherName }, { name: school, search }, shot);

      // The operator approves, after a question naming the teacher and the school.
      await operatorApproves(desk, locale, teacher.phone, school);
      await desk.close();

      // From "approved": the teacher's hands and the clock are counted until the cards are printed.
      const start = performance.now();
      const before = { ...hand.count };
      // The screens checked on the way (axe, the width, a screenshot) are the test's time, not the teacher's.
      let checking = 0;
      const checkOnTheWay = async (name: string) => {
        const from = performance.now();
        await checkScreen(page, name);
        checking += performance.now() - from;
      };
      await hand.refresh(page);
      await openClass(tab, text, className, { hand, filled: () => checkOnTheWay(shot('open-class')) });

      // 25 pupils from a workbook saved by a spreadsheet program (names and 学号).
      const workbook = join(scratch, `${locale}-名单.xlsx`);
      writeFileSync(
        workbook,
        await writeExcelFile([['姓名', '学号'], ...xlsxNames.map((name, i) => [name, 20260301 + i])]).toBuffer(),
      );
      const picker = page.getByLabel(text['teach.file'], { exact: true });
      await expectTappable(picker, 'the file picker');
      await hand.pick(picker, workbook);
      // The picker in the page's words (the browser's own button says "Choose File" whatever the page's language).
      await page.getByText(`${locale}-名单.xlsx`).waitFor(WAIT);
      expect(await page.getByText(text['teach.chooseFile'], { exact: true }).isVisible()).toBe(true);
      await hand.tap(page.getByRole('button', { name: text['teach.preview'] }));
      await page.getByText(say(text, 'teach.previewCount', { count: 25 })).waitFor(WAIT);
      await hand.tap(page.getByRole('button', { name: say(text, 'teach.createPupils', { count: 25 }) }));
      shownToTeacher = await shownDetails(page, text['teach.credentials']);
      expect(shownToTeacher.map(([name]) => name)).toEqual(xlsxNames);

      // 15 more from a CSV as Chinese Excel saves it (GBK): a blank line (10) and a repeated row (18).
      const csv = join(scratch, `${locale}-名单.csv`);
      const rows = [
        '姓名,性别',
        ...csvNames.slice(0, 8).map((n) => `${n},男`),
        '',
        ...csvNames.slice(8).map((n) => `${n},女`),
      ];
      writeFileSync(csv, gbkBytes(`${[...rows, `${csvNames[2]},男`].join('\r\n')}\r\n`));
      await hand.pick(picker, csv);
      await hand.tap(page.getByRole('button', { name: text['teach.preview'] }));
      await page.getByText(say(text, 'teach.previewCount', { count: 15 })).waitFor(WAIT);
      await page.getByText(say(text, 'teach.blankLines', { lines: '10' })).waitFor(WAIT);
      const repeated = say(text, 'teach.skippedLine', {
        line: 18,
        text: csvNames[2] ?? '',
        reason: text['teach.reason.duplicate'],
      });
      await page.getByText(repeated).waitFor(WAIT);
      await checkOnTheWay(shot('csv-preview'));
      await hand.tap(page.getByRole('button', { name: say(text, 'teach.createPupils', { count: 15 }) }));
      await page.getByRole('heading', { name: say(text, 'teach.pupils', { count: 40 }) }).waitFor(WAIT);
      const second = await shownDetails(page, text['teach.credentials']);
      expect(second.map(([name]) => name)).toEqual(csvNames);
      shownToTeacher = [...shownToTeacher, ...second];

      // The whole class's cards, printed.
      const printAll = page.getByRole('button', { name: text['teach.printAll'] });
      await expectTappable(printAll, 'print the class');
      await hand.tap(printAll);
      const sheetLink = page.getByRole('link', { name: say(text, 'teach.openSheet', { count: 40 }) });
      await expectTappable(sheetLink, 'open the cards');
      const [sheet] = await Promise.all([page.context().waitForEvent('page'), hand.tap(sheetLink)]);
      await sheet.locator('.card').nth(39).waitFor(WAIT);
      pdf = await hand.print(sheet);
      clock = (performance.now() - start - checking) / 1000;
      counted = { taps: hand.count.taps - before.taps, keys: hand.count.keys - before.keys };
      await sheet.close();
      await checkScreen(page, shot('class-of-40'));
      expect(tab.errors).toEqual([]);
    });
    console.log(
      `first-week story (${locale}, tablet 768×1024): from "approved" to "cards printed" ${counted.taps} taps, ${counted.keys} keystrokes, ${clock.toFixed(1)} s (40 pupils from an .xlsx and a GBK CSV)`,
    );

    // The paper: five pages, 40 QR codes that decode, each card's details whole on a line, as shown on screen.
    mkdirSync(SHOTS, { recursive: true });
    const printed = readPrintedSheet(pdf, scratch, `cards-${locale}`);
    copyFileSync(printed.file, join(SHOTS, `first-week-cards.${locale}.pdf`));
    copyFileSync(printed.pages[0] ?? '', join(SHOTS, `first-week-cards-page-1.${locale}.png`));
    expect(printed.pages).toHaveLength(5);
    expect(printed.codes.filter((code) => code === null)).toEqual([]);
    expect(new Set(printed.codes).size).toBe(40);
    for (const code of printed.codes) expect(code?.startsWith(`${server.url}/badge#`)).toBe(true);
    const cards = cardsIn(printed.lines, labelsOf(locale));
    expect(cards.map((c) => [c.name, c.username, c.password]).sort()).toEqual(
      shownToTeacher.map(([name, username, password]) => [name, username, password]).sort(),
    );
    expect(new Set(cards.map((c) => c.guardianCode)).size).toBe(40);
    const [byCard, byTyping] = cards as [(typeof cards)[0], (typeof cards)[0]];

    await inPage(rig.browser, tablet, async (tab) => {
      // The first card's pupil shows it to the tablet's camera: the code's link opens.
      await tab.page.goto(printed.codes[0] ?? '');
      await expectScreen(tab.page, text['account.security']);
      await tab.page.getByText(say(text, 'account.hello', { name: byCard.name })).waitFor(WAIT);
      await checkScreen(tab.page, shot('pupil-by-card'));
      await chooseOwnPassword(tab, text, byCard.password, 'Kite2026own');
      expect(tab.errors).toEqual([]);
    });
    // The second card's pupil opens the site, taps "Login card" and types the username and password from the card.
    await inPage(rig.browser, tablet, async (tab) => {
      await tab.page.goto(server.url);
      await expectScreen(tab.page, text['signIn.title']);
      const withCard = tab.page.getByRole('link', { name: text['signIn.card'] });
      await expectTappable(withCard, 'the login card way');
      await withCard.click();
      await inputLabelled(tab, text['form.cardUsername']).fill(byTyping.username);
      await inputLabelled(tab, text['form.password']).fill(byTyping.password);
      // No way to a reset by phone or e-mail the child does not have: the teacher resets it.
      await tab.page.getByText(text['signIn.cardForgot']).waitFor(WAIT);
      expect(await tab.page.getByRole('link', { name: text['signIn.forgot'] }).count()).toBe(0);
      await checkScreen(tab.page, shot('pupil-types'));
      await tab.page.getByRole('button', { name: text['signIn.submit'], exact: true }).click();
      await expectScreen(tab.page, text['account.security']);
      await tab.page.getByText(say(text, 'account.hello', { name: byTyping.name })).waitFor(WAIT);
      await chooseOwnPassword(tab, text, byTyping.password, 'Comet2026own');
      await checkScreen(tab.page, shot('pupil-typed'));
      expect(tab.errors).toEqual([]);
    });

    // The second pupil's mother, on her phone: she signs up and types the card's guardian code.
    await inPage(rig.browser, { locale, ...PHONE }, async (tab) => {
      const { page } = tab;
      await signUpInPage(rig, tab, text, nextPhone(), 'Magnolia1984', { born: { year: '1984', month: '03' } });
      await page.getByRole('link', { name: text['family.toGuardianArea'] }).click();
      await expectScreen(page, text['guardian.title']);
      await page.getByTestId('guardian-code').fill(byTyping.guardianCode);
      await page.getByLabel(text['guardianConsent.relation']).selectOption('mother');
      await checkScreen(page, shot('mother-links', 'phone'));
      await page.getByRole('button', { name: text['guardian.link'], exact: true }).click();
      await page.getByText(text['guardian.linked']).waitFor(WAIT);
      const panel = page.getByTestId('child-panel');
      await panel.getByRole('heading', { name: byTyping.name, exact: true }).waitFor(WAIT);
      // She is 妈妈 to the family, not the drawn 用户NNNNNNNN: among the guardians and in who read the
      // record, where the teacher is the name they gave the school, with the school; one row a reader a day.
      const mother = text['guardian.relation.mother'];
      await panel.locator('.linked-guardians li').getByText(mother, { exact: true }).waitFor(WAIT);
      const reads = panel.getByTestId('record-read');
      await reads.getByText(`${text['recordReads.role.guardian']} ${mother}`, { exact: true }).waitFor(WAIT);
      const byTeacher = reads.getByText(`${text['recordReads.role.teacher']} ${teacherName} · ${school}`);
      await expect.poll(() => byTeacher.count(), WAIT).toBe(1);
      // The hours of no use as the site writes them (22:00), not the browser's 10:00 PM.
      const curfew = panel.getByLabel(text['guardian.curfewFrom'], { exact: true });
      expect(await curfew.evaluate((field) => (field as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(
        '22:00',
      );
      await checkScreen(page, shot('mother-linked', 'phone'));
      expect(tab.errors).toEqual([]);
    });

    // The year ends: the class goes up a grade into the next school year, and is archived.
    await inPage(rig.browser, tablet, async (tab) => {
      const { page } = tab;
      await teacherOpensTeaching(rig, tab, text, teacher);
      // Greeted by the name given when asking to teach, not the drawn 用户NNNN.
      await page.getByText(say(text, 'account.hello', { name: teacherName })).waitFor(WAIT);
      await page.getByRole('link', { name: className, exact: true }).click();
      await expectScreen(page, className);
      // The form offers the next school year after the class's (opened in this one: from September, this year's).
      const today = new Date();
      const first = today.getFullYear() - (today.getMonth() >= 8 ? 0 : 1) + 1;
      await page.getByRole('button', { name: text['teach.promote'] }).click();
      const next = `${first}-${first + 1}`;
      await page.getByText(say(text, 'teach.promoted', { grade: text['grade.4'], year: next })).waitFor(WAIT);
      await page.getByRole('button', { name: text['teach.archive'] }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: text['teach.archive'] }).click();
      await page.getByText(text['teach.archivedDone']).waitFor(WAIT);
      // Nothing left that the archived class refuses: no join code to open, no pupils to add, no resets or cards.
      // (The page shows "archived" before it has read the class again: wait for the buttons to go.)
      await expect.poll(() => page.getByRole('button', { name: text['teach.newJoinCode'] }).count(), WAIT).toBe(0);
      await expect.poll(() => page.getByRole('button', { name: text['teach.preview'] }).count(), WAIT).toBe(0);
      // Read-only: no password resets or cards for it either (the server refuses them, E_1).
      await page.getByText(text['teach.archivedReadOnly']).waitFor(WAIT);
      for (const name of [text['teach.reset'], text['teach.printAll']])
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      await checkScreen(page, shot('year-ended'));
      expect(tab.errors).toEqual([]);
    });
  }, 300_000);
});

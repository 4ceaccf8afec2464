/**
 * A login-card sheet printed to PDF, read back as paper would be: each page rendered at 150 dpi
 * (pdftoppm), the QR code of each card cropped from the page by the sheet's A4 layout and decoded
 * (jsQR, test-kit/qr-cards.ts), and the text layer with its layout kept (pdftotext -layout), so a
 * value broken across lines is not found on one.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeQrPixels } from '@edupass/test-kit/qr-cards';
import { PNG } from 'pngjs';

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

export interface PrintedSheet {
  /** The PDF as written. */
  file: string;
  /** Each page rendered to PNG, in order. */
  pages: string[];
  /** Every card's QR code read from the pages (8 places a page; null where no code decodes). */
  codes: (string | null)[];
  /** The text layer's lines. */
  lines: string[];
  /** Whether `value` stands whole on one line of the text. */
  onOneLine(value: string): boolean;
}

/** Writes `pdf` into `dir` as `<name>.pdf` and reads it back. */
export const readPrintedSheet = (pdf: Buffer, dir: string, name: string): PrintedSheet => {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', String(DPI), '-png', file, join(dir, `${name}-page`)]);
  const pages = readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-page`) && f.endsWith('.png'))
    .sort()
    .map((f) => join(dir, f));
  const codes = pages.flatMap((page) => qrCodesOf(PNG.sync.read(readFileSync(page))));
  const lines = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\n');
  return { file, pages, codes, lines, onOneLine: (value) => lines.some((line) => line.includes(value)) };
};

/** Guardian codes in the text: eight capitals and digits without look-alikes (services/edu/codes.ts). */
export const guardianCodesIn = (lines: string[]): string[] =>
  lines.join('\n').match(/(?<![A-Za-z0-9])[A-HJ-NP-Z2-9]{8}(?![A-Za-z0-9])/g) ?? [];

/** The card's labels in one language (services/edu/school/card-texts.ts). */
export interface CardLabels {
  name: string;
  username: string;
  password: string;
}

export interface PrintedCard {
  name: string;
  username: string;
  password: string;
  guardianCode: string;
}

/**
 * Each card's details as the text layer holds them, in card order: a label followed by its value on
 * the same line (two cards share a line of the page, the left one first), and the guardian code by
 * its shape (its label may wrap). A value split over two lines is not read, so the cards found are
 * those printed whole.
 */
export const cardsIn = (lines: string[], labels: CardLabels): PrintedCard[] => {
  const literal = (label: string) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const values = (label: string) =>
    lines.flatMap((line) => [...line.matchAll(new RegExp(`${literal(label)}\\s+(\\S+)`, 'g'))].map((m) => m[1] ?? ''));
  const [names, usernames, passwords] = [labels.name, labels.username, labels.password].map(values) as [
    string[],
    string[],
    string[],
  ];
  const codes = guardianCodesIn(lines);
  return usernames.map((username, i) => ({
    name: names[i] ?? '',
    username,
    password: passwords[i] ?? '',
    guardianCode: codes[i] ?? '',
  }));
};

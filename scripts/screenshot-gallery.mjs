/**
 * The screenshot gallery: one page, test-results/screenshots/index.html, showing every screenshot the
 * browser tests keep (packages/web/e2e/screenshots, packages/console/e2e/screenshots), grouped by screen
 * with each language and width side by side, and linking the PDFs they printed (the login cards). `npm test` writes it at the end of the run; open it in a
 * browser to look through every screen.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * Whether this run takes the screenshots at all: `EDUPASS_TEST_SCREENSHOTS=0` (as CI runs) takes none
 * (test-kit browser.ts keepScreenshot), and there is no gallery to write.
 */
export const SCREENSHOTS_TAKEN = process.env.EDUPASS_TEST_SCREENSHOTS !== '0';
export const GALLERY = join(root, 'test-results', 'screenshots', 'index.html');
const SOURCES = [
  { title: 'Web client', dir: join(root, 'packages/web/e2e/screenshots') },
  { title: 'Operator console', dir: join(root, 'packages/console/e2e/screenshots') },
];

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** `sign-in.zh-CN.390.png` → screen `sign-in`, variant `zh-CN · 390`. */
export const describeShot = (file) => {
  const parts = file.replace(/\.png$/, '').split('.');
  const variant = parts.filter((p) => /^(zh-CN|en|\d{3,4}|dark|light)$/.test(p));
  const screen = parts.filter((p) => !variant.includes(p)).join('.');
  return { screen, variant: variant.join(' · ') || 'default' };
};

export const writeGallery = (sources = SOURCES, out = GALLERY) => {
  const sections = [];
  let count = 0;
  for (const { title, dir } of sources) {
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort();
    const screens = new Map();
    for (const file of files) {
      const { screen, variant } = describeShot(file);
      screens.set(screen, [...(screens.get(screen) ?? []), { file, variant }]);
    }
    count += files.length;
    const pdfs = readdirSync(dir)
      .filter((f) => f.endsWith('.pdf'))
      .sort()
      .map((f) => `<a href="${escapeHtml(relative(join(out, '..'), join(dir, f)))}">${escapeHtml(f)}</a>`);
    const printed = pdfs.length > 0 ? `<p>Printed to PDF: ${pdfs.join(' · ')}</p>` : '';
    const groups = [...screens].map(
      ([screen, shots]) =>
        `<h3 id="${escapeHtml(`${title}-${screen}`)}">${escapeHtml(screen)}</h3><div class="row">${shots
          .map(
            ({ file, variant }) =>
              `<figure><a href="${escapeHtml(relative(join(out, '..'), join(dir, file)))}"><img loading="lazy" alt="${escapeHtml(`${screen}, ${variant}`)}" src="${escapeHtml(relative(join(out, '..'), join(dir, file)))}"></a><figcaption>${escapeHtml(variant)}</figcaption></figure>`,
          )
          .join('')}</div>`,
    );
    sections.push(`<h2>${escapeHtml(title)} (${files.length})</h2>${printed}${groups.join('')}`);
  }
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(
    out,
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>EduPass screens (${count})</title><style>body{font:14px system-ui,sans-serif;margin:1rem 2rem}.row{display:flex;gap:1rem;overflow-x:auto;align-items:flex-start}figure{margin:0}img{max-height:480px;border:1px solid #ccc}figcaption{color:#555}</style><h1>EduPass screens</h1><p>${count} screenshots written by the browser tests of the last run.</p>${sections.join('')}</html>\n`,
  );
  return { count, out };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { count, out } = writeGallery();
  console.log(`screenshot gallery: ${count} screenshots, ${relative(root, out)}`);
}

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeShot, writeGallery } from './screenshot-gallery.mjs';

describe('the screenshot gallery', () => {
  it('names a shot by its screen and its language and width', () => {
    expect(describeShot('sign-in.zh-CN.390.png')).toEqual({ screen: 'sign-in', variant: 'zh-CN · 390' });
    expect(describeShot('console-user-blocked.png')).toEqual({ screen: 'console-user-blocked', variant: 'default' });
  });

  it('groups every screenshot of each folder by screen, linked relative to the page, and links the PDFs', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'gallery-'));
    const web = join(scratch, 'web');
    mkdirSync(web);
    for (const file of [
      'sign-in.en.1280.png',
      'sign-in.zh-CN.390.png',
      'account.en.390.png',
      'notes.txt',
      'cards.zh-CN.pdf',
    ]) {
      writeFileSync(join(web, file), '');
    }
    const out = join(scratch, 'out', 'index.html');
    const { count } = writeGallery(
      [
        { title: 'Web client', dir: web },
        { title: 'Missing', dir: join(scratch, 'none') },
      ],
      out,
    );
    expect(count).toBe(3);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('<h2>Web client (3)</h2>');
    expect(page.match(/<h3/g)).toHaveLength(2);
    expect(page).toContain('src="../web/sign-in.zh-CN.390.png"');
    expect(page).toContain('alt="sign-in, en · 1280"');
    expect(page).not.toContain('notes.txt');
    expect(page).toContain('<a href="../web/cards.zh-CN.pdf">cards.zh-CN.pdf</a>');
  });
});

/** Touch targets for children on a phone: WCAG 2.5.8's 44×44 CSS px, measured in the page. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousViolations } from './axe.ts';

/** The phone the touch-target tests use. */
export const PHONE = { width: 390, height: 844 };

/** The interactive elements of the page smaller than 44×44 px, each as "tag "name" width×height". */
export const smallTargets = (page: Page): Promise<string[]> =>
  page.evaluate((min) => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="tab"], [role="button"], [role="checkbox"], [role="radio"]';
    const name = (element: Element) =>
      (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    /** A link in running text: its block holds other words too. */
    const inSentence = (element: Element) => {
      const block = element.closest('p, li, label, span, small, div');
      if (!block || block === element) return false;
      const own = element.textContent ?? '';
      return (
        (block.textContent ?? '').replace(own, '').trim().length > 0 && getComputedStyle(element).display === 'inline'
      );
    };
    const small: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      if (element.closest('[hidden], [aria-hidden="true"], [inert]')) continue;
      let box = element.getBoundingClientRect();
      // Not shown, or shown only to screen readers and the keyboard (the skip link until focused).
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(element).visibility === 'hidden') continue;
      if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
        const label =
          element.closest('label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`) : null);
        if (label) box = label.getBoundingClientRect();
      }
      if (element.tagName === 'A' && inSentence(element)) continue;
      if (box.width < min || box.height < min) {
        const type = element instanceof HTMLInputElement ? `[${element.type}]` : '';
        small.push(
          `${element.tagName.toLowerCase()}${type} "${name(element)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  }, 44);

/**
 * Checkboxes and radios left alone on their line, their label's words starting under them (a label
 * too long for the row wrapped whole), each as "[type] "label"": a child reads the box and its words
 * as one.
 */
export const strandedChoices = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const stranded: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>(
      'label input[type="checkbox"], label input[type="radio"]',
    )) {
      const box = input.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || input.closest('[hidden], [aria-hidden="true"], [inert]')) continue;
      const label = input.closest('label') as HTMLLabelElement;
      const words = document.createRange();
      words.selectNodeContents(label);
      words.setStartAfter(input);
      const first = [...words.getClientRects()].find((rect) => rect.width > 0 && rect.height > 0);
      if (first && first.top >= box.bottom - 1) {
        stranded.push(`[${input.type}] "${(label.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`);
      }
    }
    return stranded;
  });

/**
 * axe (serious and critical), the 44 px measure and no choice stranded from its words, on the screen
 * as it is now; `where` names it in a failure.
 */
export const expectCleanScreen = async (page: Page, where: string) => {
  expect(await seriousViolations(page), where).toEqual([]);
  expect(await smallTargets(page), where).toEqual([]);
  expect(await strandedChoices(page), where).toEqual([]);
};

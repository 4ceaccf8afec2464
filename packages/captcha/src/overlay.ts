/**
 * The overlay of spec §2: a dimmed full-screen mask; for a provider that draws into our page, a box
 * with the prompt and a close link, 300 wide; the mask is removed 600 ms after the captcha finishes.
 */
import { CAPTCHA_MASK_REMOVE_DELAY_MS, CAPTCHA_WIDGET_WIDTH } from '@edupass/protocol';
import type { Timers } from './globals.ts';
import { CAPTCHA_TEXT, type CaptchaLocale, type CaptchaText } from './locale.ts';

export interface Overlay {
  mask: HTMLElement;
  /** Where the widget draws; present only when opened with a box. */
  container: HTMLElement | undefined;
  /** The words of the overlay's language, for the widget drawn in it. */
  text: CaptchaText;
  /** Resolves when the user asks to close (close link or Escape). */
  closeRequested: Promise<void>;
  /** Ends the overlay: the mask goes away after the spec's delay. Safe to call twice. */
  finish(): void;
}

let overlayCount = 0;

const style = (element: HTMLElement, rules: Record<string, string>) => {
  for (const [name, value] of Object.entries(rules)) element.style.setProperty(name, value);
};

export const openOverlay = (
  document: Document,
  options: { box: boolean; timers: Timers; locale: CaptchaLocale },
): Overlay => {
  const id = `edupass-captcha-${++overlayCount}`;
  const text = CAPTCHA_TEXT[options.locale];
  const mask = document.createElement('div');
  mask.setAttribute('data-edupass-captcha', 'mask');
  // Screen readers pronounce the overlay in its own language even where the page speaks another.
  mask.setAttribute('lang', options.locale);
  style(mask, {
    position: 'fixed',
    inset: '0',
    'z-index': '2147483000',
    background: 'rgba(0, 0, 0, 0.5)',
    display: 'flex',
    'align-items': 'center',
    'justify-content': 'center',
  });

  let requestClose: () => void = () => {};
  const closeRequested = new Promise<void>((resolve) => {
    requestClose = resolve;
  });
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') requestClose();
  };
  document.addEventListener('keydown', onKey);

  let container: HTMLElement | undefined;
  if (options.box) {
    const box = document.createElement('div');
    box.setAttribute('data-edupass-captcha', 'box');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', `${id}-prompt`);
    style(box, {
      background: '#fff',
      color: '#222',
      padding: '12px',
      'border-radius': '6px',
      'box-shadow': '0 4px 24px rgba(0, 0, 0, 0.3)',
      font: '14px/1.4 system-ui, sans-serif',
    });
    const header = document.createElement('div');
    style(header, { display: 'flex', 'justify-content': 'space-between', 'align-items': 'center', gap: '12px' });
    const prompt = document.createElement('p');
    prompt.id = `${id}-prompt`;
    prompt.textContent = text.prompt;
    style(prompt, { margin: '0 0 8px' });
    const close = document.createElement('a');
    close.href = '#';
    close.setAttribute('role', 'button');
    close.setAttribute('data-edupass-captcha', 'close');
    close.textContent = text.close;
    close.addEventListener('click', (event) => {
      event.preventDefault();
      requestClose();
    });
    header.append(prompt, close);
    container = document.createElement('div');
    container.id = `${id}-widget`;
    container.setAttribute('data-edupass-captcha', 'widget');
    style(container, { width: `${CAPTCHA_WIDGET_WIDTH}px` });
    box.append(header, container);
    mask.append(box);
  }
  (document.body ?? document.documentElement).appendChild(mask);

  let finished = false;
  return {
    mask,
    container,
    text,
    closeRequested,
    finish() {
      if (finished) return;
      finished = true;
      document.removeEventListener('keydown', onKey);
      mask.setAttribute('data-state', 'finished');
      options.timers.setTimeout(() => mask.remove(), CAPTCHA_MASK_REMOVE_DELAY_MS);
    },
  };
};

/**
 * What the overlay and the slide puzzle say, in each language the SDK speaks: a plain table, no
 * library. The specification quotes the prompt and the close link of the box (CAPTCHA_MESSAGES), so
 * English uses those word for word. Its verdict 'incorrect captcha checking' is an error message:
 * `CaptchaError` messages stay the specification's in every language (sites show their own text for
 * an error's `name`), while the puzzle tells a person in plain words what to do next.
 */
import { CAPTCHA_MESSAGES } from '@edupass/protocol';
import type { Page } from './globals.ts';

export type CaptchaLocale = 'zh-CN' | 'en';

export interface CaptchaText {
  /** Heading of the box, the dialog's name and the slider's. */
  prompt: string;
  close: string;
  /** The slider's position for screen readers (aria-valuetext). */
  position(x: number, max: number): string;
  /** Written in the slider's track until it moves: what to do. */
  hint: string;
  /** Said when an answer was refused and a new puzzle follows. */
  rejected: string;
  /** Said when the puzzle expired before it was answered. */
  expired: string;
  /** Said when the server could not be reached or failed. */
  network: string;
  /** The button that asks for a new puzzle after `expired` or `network`. */
  retry: string;
}

export const CAPTCHA_TEXT: Readonly<Record<CaptchaLocale, CaptchaText>> = {
  'zh-CN': {
    prompt: '拖动下方滑块完成验证',
    close: '关闭',
    position: (x, max) => `${x} / ${max}`,
    hint: '拖动滑块完成拼图',
    rejected: '没有对准缺口，请再拖一次',
    expired: '拼图已过期',
    network: '网络出错，请检查网络后重试',
    retry: '换一张',
  },
  en: {
    prompt: CAPTCHA_MESSAGES.prompt,
    close: CAPTCHA_MESSAGES.close,
    position: (x, max) => `${x} of ${max}`,
    hint: 'Drag the slider to fit the piece',
    rejected: 'The piece did not fit the gap. Try again with the new puzzle.',
    expired: 'The puzzle has expired. Ask for a new one.',
    network: 'Network error. Check the connection and try again.',
    retry: 'New puzzle',
  },
};

/** Any Chinese (zh, zh-CN, zh-Hans, zh-TW…) reads Chinese; any other language reads English. */
const localeOfTag = (tag: string): CaptchaLocale => (/^zh(?:[-_]|$)/i.test(tag) ? 'zh-CN' : 'en');

/**
 * The language to speak: the one asked for, else the page's `<html lang>`, else the browser's first
 * language; Chinese where nothing says (EduPass's sites are Chinese first).
 */
export const chooseLocale = (asked: string | undefined, page: Page | undefined): CaptchaLocale => {
  const navigator = page?.window.navigator;
  const tag = [asked, page?.document.documentElement.lang, ...(navigator?.languages ?? []), navigator?.language]
    .map((value) => value?.trim())
    .find((value) => value !== undefined && value !== '');
  return tag === undefined ? 'zh-CN' : localeOfTag(tag);
};

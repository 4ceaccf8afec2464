/**
 * A nickname as the page shows it. The server gives every new account a drawn default nickname
 * (用户 and eight digits, DEFAULT_NICKNAME): the API keeps it so the field is never empty, and the page
 * says it in the visitor's language ("User 12345678" in English) rather than in Chinese everywhere.
 */
import { DEFAULT_NICKNAME, isDefaultNickname } from '@edupass/protocol';
import type { I18n } from '../i18n/i18n.ts';

export const shownNickname = (nickname: string, t: I18n['t']): string =>
  isDefaultNickname(nickname)
    ? t('nickname.default', { number: nickname.slice(DEFAULT_NICKNAME.prefix.length) })
    : nickname;

/**
 * A child as a guardian is shown them: the nickname the child chose, else the name the school gave
 * the account (the teacher typed 王子涵), else the drawn nickname.
 */
export const shownChildName = (child: { nickname: string; pupil_name: string | null }, t: I18n['t']): string =>
  isDefaultNickname(child.nickname) && child.pupil_name ? child.pupil_name : shownNickname(child.nickname, t);

/**
 * The nickname a new account gets when it brings none: 用户 and eight random digits. Existing clients show
 * and key on the nickname (compatibility.md: never empty), so every account has one from the start; the
 * user may change it like any other. Uniqueness is the nickname column's unique index: a draw that meets
 * a taken name (anyone's, chosen or drawn) is drawn again, so a default never collides with a chosen name.
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_NICKNAME } from '@edupass/protocol';

export const DEFAULT_NICKNAME_PREFIX = DEFAULT_NICKNAME.prefix;
const DIGITS = DEFAULT_NICKNAME.digits;

export type NicknameDraw = () => string;

export const drawDefaultNickname: NicknameDraw = () =>
  `${DEFAULT_NICKNAME_PREFIX}${String(randomInt(10 ** DIGITS)).padStart(DIGITS, '0')}`;

export const DEFAULT_NICKNAME_PATTERN = new RegExp(`^${DEFAULT_NICKNAME_PREFIX}\\d{${DIGITS}}$`, 'u');

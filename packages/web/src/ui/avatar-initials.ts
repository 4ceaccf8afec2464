/**
 * What a default avatar shows when the account has no picture: the initials of a chosen nickname
 * ("Ada Lovelace" → "AL", "小明" → "小"), or, for the nickname the server drew (用户 and digits), its last
 * two digits — the name shown beside it, rather than "用" for everyone. The header and the profile's
 * picture field draw the same.
 */
import { isDefaultNickname } from '@edupass/protocol';

const LATIN_WORDS = /^[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*)+$/;

export const avatarInitials = (nickname: string): string => {
  const name = nickname.trim();
  if (name === '') return '';
  if (isDefaultNickname(name)) return name.slice(-2);
  if (LATIN_WORDS.test(name)) {
    const words = name.split(/\s+/);
    return `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}`.toUpperCase();
  }
  return ([...name][0] ?? '').toUpperCase();
};

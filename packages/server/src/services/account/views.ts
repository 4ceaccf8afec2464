/** How a user is shown on the wire (compatibility.md "Success shapes"). */
import { type AuthInfo, type Privacy, type TokenSet, UNSET_WHEN_ZERO, type UserInfo } from '@edupass/protocol';
import type { User } from '../../store/schema.ts';
import { gradeDesc } from './grades.ts';

export const maskPhone = (phone: string | null): string => (phone ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '');

/**
 * The store keeps an unset sex, birthday or grade as NULL; the wire says 0 (clients parse integers) and
 * names the unset ones in `unset_fields` (protocol unset-fields.ts has what 0 means for each).
 */
export const userInfo = (user: User): UserInfo => ({
  id: user.id,
  nickname: user.nickname ?? '',
  avatar_url: user.avatar_url,
  fullname: user.fullname,
  sex: user.sex === 1 ? 1 : 0,
  birthday: user.birthday ?? 0,
  qq: user.qq,
  description: user.description,
  grade: user.grade ?? 0,
  grade_desc: gradeDesc(user.grade),
  unset_fields: UNSET_WHEN_ZERO.filter((field) => user[field] === null),
});

export const authInfo = (user: User, token: string | TokenSet): AuthInfo => ({
  token,
  email: user.email ?? '',
  phone_number: maskPhone(user.phone),
  has_password: user.password_hash !== null,
  is_weak_password: user.weak_password === 1,
});

export const privacy = (user: User): Privacy => ({
  username: user.username ?? '',
  email: user.email ?? '',
  phone_number: maskPhone(user.phone),
  has_password: user.password_hash !== null,
});

/** How a user is shown on the wire (compatibility.md "Success shapes"). */
import type { AuthInfo, Privacy, TokenSet, UserInfo } from '@edupass/protocol';
import type { User } from '../store/schema.ts';
import { gradeDesc } from './grades.ts';

export const maskPhone = (phone: string | null): string => (phone ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '');

export const userInfo = (user: User): UserInfo => ({
  id: user.id,
  nickname: user.nickname ?? '',
  avatar_url: user.avatar_url,
  fullname: user.fullname,
  sex: user.sex === 0 || user.sex === 1 ? user.sex : null,
  birthday: user.birthday,
  qq: user.qq,
  description: user.description,
  grade: user.grade,
  grade_desc: gradeDesc(user.grade),
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

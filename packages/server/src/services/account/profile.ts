import { type ProfileField, profileFields } from '@edupass/protocol';
import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import { findUserByNickname, findUserByUsername } from '../../store/account/users.ts';
import type { User, UsersTable } from '../../store/schema.ts';
import { isSealedBand } from '../../store/sealed-records.ts';
import { isWebUrl } from '../security/web-urls.ts';
import type { AccountEvent } from '../webhooks/events.ts';
import { forgetAvatar } from './avatar-files.ts';
import { isKnownGrade } from './grades.ts';
import { currentUser, saveUser } from './users.ts';

export type ProfileChanges = Partial<Record<ProfileField, string | number>>;

/** Columns a `user.updated` event may carry: the settable profile and the username (no secret, no key). */
const PUBLIC_FIELDS = [...profileFields(), 'username'] as const;

const userUpdated = (user: User, changes: Updateable<UsersTable>): AccountEvent => ({
  type: 'user.updated',
  userId: user.id,
  product: user.pid,
  data: { changes: Object.fromEntries(PUBLIC_FIELDS.filter((f) => f in changes).map((f) => [f, changes[f]])) },
});

/** Applies validated profile fields (the route has run the §5 rules on each present field). */
export const updateProfile = async (ctx: Context, userId: number, changes: ProfileChanges) => {
  const user = await currentUser(ctx, userId);
  const update: Updateable<UsersTable> = { updated_at: ctx.now() };
  const { nickname, avatar_url, fullname, birthday, sex, qq, description, grade } = changes;
  if (typeof birthday === 'number') {
    if (birthday > ctx.now() / 1000) fail('AC3_4');
    // A child's birthday is not kept: the year and month of birth (sealed) are all the service needs.
    if (!isSealedBand(user.age_band)) update.birthday = birthday;
  }
  if (typeof nickname === 'string' && nickname !== user.nickname) {
    const owner = await findUserByNickname(ctx.db, nickname);
    if (owner && owner.id !== user.id) fail('AC3_25');
    update.nickname = nickname;
  }
  if (typeof avatar_url === 'string') {
    if (avatar_url !== '' && !isWebUrl(avatar_url)) throw invalidRequest('avatar_url must be an http(s) URL.');
    update.avatar_url = avatar_url;
  }
  if (typeof grade === 'number') {
    if (!isKnownGrade(grade)) throw invalidRequest(`Unknown grade ${grade}; see grade-list.`);
    update.grade = grade;
  }
  if (typeof fullname === 'string') update.fullname = fullname;
  if (typeof sex === 'number') update.sex = sex;
  if (typeof qq === 'string') update.qq = qq;
  if (typeof description === 'string') update.description = description;
  if (!(await saveUser(ctx, userId, update, userUpdated(user, update)))) fail('AC3_25');
  // The stored picture the profile no longer shows goes.
  if (update.avatar_url !== undefined && update.avatar_url !== user.avatar_url) await forgetAvatar(ctx, user);
};

export const setUsername = async (ctx: Context, userId: number, username: string) => {
  const user = await currentUser(ctx, userId);
  if (user.username !== null) fail('AC3_5');
  if (await findUserByUsername(ctx.db, username)) fail('AC3_6');
  const changes = { username, username_key: username.toLowerCase(), updated_at: ctx.now() };
  const saved = await saveUser(ctx, userId, changes, userUpdated(user, changes));
  if (!saved) fail('AC3_6');
};

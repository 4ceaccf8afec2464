/**
 * Linking rules shared by every third-party step: one account per third-party identity (AC3_20), one
 * identity of each kind per account (AC3_21), and never unlinking the last way to sign in (AC3_22).
 */
import type { OauthItem } from '@edupass/protocol';
import type { Kysely } from 'kysely';
import type { OauthIdentity, OauthProviderName } from '../../adapters/oauth-provider.ts';
import type { Context } from '../../context.ts';
import { fail } from '../../errors.ts';
import { findOauthLink, findUserOauth, insertOauthLink, userOauths } from '../../store/account/oauths.ts';
import type { Database, User } from '../../store/schema.ts';

/** Refuses an identity already linked to someone (AC3_20) or a user whose slot for its kind is taken (AC3_21). */
export const assertLinkable = async (db: Kysely<Database>, identity: OauthIdentity, user: User | undefined) => {
  const link = await findOauthLink(db, identity.provider, identity.openid, identity.unionid);
  if (link && link.user_id !== user?.id) fail('AC3_20');
  if (user && (await findUserOauth(db, user.id, identity.provider))) fail('AC3_21');
};

/** Links an identity to a user; a unique clash (a parallel link won) says which rule it broke. */
export const linkIdentity = async (ctx: Context, db: Kysely<Database>, userId: number, identity: OauthIdentity) => {
  const inserted = await insertOauthLink(db, {
    user_id: userId,
    provider: identity.provider,
    openid: identity.openid,
    unionid: identity.unionid,
    nickname: identity.nickname,
    avatar_url: identity.avatarUrl,
    created_at: ctx.now(),
  });
  if (inserted) return;
  const link = await findOauthLink(db, identity.provider, identity.openid, null);
  fail(link && link.user_id !== userId ? 'AC3_20' : 'AC3_21');
};

/**
 * Whether a user keeps a way to sign in without the given third-party link: a phone (codes by SMS),
 * a password with a username or e-mail to type it with, or another third-party link.
 */
export const keepsAWayIn = (user: User, links: { provider: string }[], without: OauthProviderName): boolean =>
  user.phone !== null ||
  (user.password_hash !== null && (user.username !== null || user.email !== null)) ||
  links.some((link) => link.provider !== without);

const OAUTH_KINDS = [
  { id: 1, name: 'wechat' },
  { id: 2, name: 'qq' },
] as const;

/** Each third-party kind and whether the user has it linked (`listOauths`). */
export const listOauths = async (ctx: Context, userId: number): Promise<OauthItem[]> => {
  const linked = await userOauths(ctx.db, userId);
  return OAUTH_KINDS.map(({ id, name }) => {
    const link = linked.find((l) => l.provider === name);
    return { id, name, nickname: link?.nickname ?? '', is_bound: link !== undefined };
  });
};

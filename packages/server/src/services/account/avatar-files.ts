/**
 * The stored pictures behind profiles: the store a configuration opens (once), and deleting the
 * picture a profile no longer shows — replaced, or its account deleted — so no photo outlives its use.
 */
import { AVATAR_NAME, type AvatarStore, openAvatarStore } from '../../adapters/avatar-store.ts';
import type { AvatarConfig } from '../../config/avatar-config.ts';
import type { Context } from '../../context.ts';
import type { User } from '../../store/schema.ts';

const stores = new WeakMap<AvatarConfig, AvatarStore>();

export const avatarStore = (config: AvatarConfig) => {
  const known = stores.get(config);
  if (known) return known;
  const made = openAvatarStore(config);
  stores.set(config, made);
  return made;
};

/** Whose profile picture: the account and the link its profile shows. */
type PictureOwner = Pick<User, 'id' | 'avatar_url'>;

/**
 * The name of the picture `owner` uploaded, when its profile shows one; undefined for a link to
 * elsewhere. A stored name begins with its uploader's id: another user's picture, linked by hand, is
 * a link like any other, which this account may not delete and whose copy is not its data.
 */
const storedName = (ctx: Context, { id, avatar_url: url }: PictureOwner) => {
  const prefix = `${ctx.config.avatars.publicUrl}/`;
  if (!url?.startsWith(prefix)) return undefined;
  const name = url.slice(prefix.length);
  return AVATAR_NAME.test(name) && name.startsWith(`${id}-`) ? name : undefined;
};

/** The picture `owner` uploaded, with its name (a person's copy of their data); undefined for none. */
export const readAvatar = async (ctx: Context, owner: PictureOwner) => {
  const name = storedName(ctx, owner);
  if (name === undefined) return undefined;
  const picture = await avatarStore(ctx.config.avatars).read(name);
  return picture === undefined ? undefined : { name, picture };
};

/** Deletes the picture `owner` uploaded and its profile showed; a link to elsewhere is left alone. */
export const forgetAvatar = async (ctx: Context, owner: PictureOwner) => {
  const name = storedName(ctx, owner);
  if (name === undefined) return;
  try {
    await avatarStore(ctx.config.avatars).remove(name);
  } catch (error) {
    ctx.logger.error({ err: error, avatar: name }, 'a stored picture could not be deleted; delete it by hand');
  }
};

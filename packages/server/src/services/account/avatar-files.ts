/**
 * The stored pictures behind profiles: the store a configuration opens (once), and deleting the
 * picture a profile no longer shows — replaced, or its account deleted — so no photo outlives its use.
 */
import { AVATAR_NAME, type AvatarStore, openAvatarStore } from '../../adapters/avatar-store.ts';
import type { AvatarConfig } from '../../config/avatar-config.ts';
import type { Context } from '../../context.ts';

const stores = new WeakMap<AvatarConfig, AvatarStore>();

export const avatarStore = (config: AvatarConfig) => {
  const known = stores.get(config);
  if (known) return known;
  const made = openAvatarStore(config);
  stores.set(config, made);
  return made;
};

/** The stored picture's name when `url` is one of ours; undefined for a link to elsewhere. */
const storedName = (ctx: Context, url: string | null | undefined) => {
  const prefix = `${ctx.config.avatars.publicUrl}/`;
  if (!url?.startsWith(prefix)) return undefined;
  const name = url.slice(prefix.length);
  return AVATAR_NAME.test(name) ? name : undefined;
};

/** The stored picture at `url` with its name (a person's copy of their data); undefined for none of ours. */
export const readAvatar = async (ctx: Context, url: string | null | undefined) => {
  const name = storedName(ctx, url);
  if (name === undefined) return undefined;
  const picture = await avatarStore(ctx.config.avatars).read(name);
  return picture === undefined ? undefined : { name, picture };
};

/** Deletes the stored picture at `url`, when it is one of ours; a link to elsewhere is left alone. */
export const forgetAvatar = async (ctx: Context, url: string | null | undefined) => {
  const name = storedName(ctx, url);
  if (name === undefined) return;
  try {
    await avatarStore(ctx.config.avatars).remove(name);
  } catch (error) {
    ctx.logger.error({ err: error, avatar: name }, 'a stored picture could not be deleted; delete it by hand');
  }
};

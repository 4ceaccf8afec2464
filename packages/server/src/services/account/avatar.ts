/**
 * A profile picture uploaded by its user: the client sends a cropped square as a data URL; the server
 * decodes it, lets only PNG, JPEG, WebP and GIF images through (by their content, not the declared type),
 * re-encodes a `AVATAR.size` square WebP (the first frame, turned upright, every metadata field — GPS
 * included — dropped), stores it under a name made from its content and sets the profile's `avatar_url`.
 */
import { createHash } from 'node:crypto';
import { AVATAR } from '@edupass/protocol';
import sharp from 'sharp';
import { type AvatarStore, openAvatarStore } from '../../adapters/avatar-store.ts';
import type { AvatarConfig } from '../../config/avatar-config.ts';
import type { Context } from '../../context.ts';
import { invalidRequest } from '../../errors.ts';
import { updateProfile } from './profile.ts';

const DATA_URL = /^data:(image\/[a-z+.-]+);base64,([A-Za-z0-9+/]*={0,2})$/;
const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
/** Large enough for any photo a phone takes, small enough that decoding cannot exhaust memory. */
const MAX_PIXELS = 40_000_000;
const MIN_SIDE = 32;

const notAPicture = () =>
  invalidRequest(
    `image must be a PNG, JPEG, WebP or GIF picture of at most ${AVATAR.maxBytes / 1024} KB and at least ${MIN_SIDE}×${MIN_SIDE} pixels.`,
  );

const decode = (image: string): Buffer => {
  const parts = DATA_URL.exec(image);
  if (!parts?.[1] || !(AVATAR.types as readonly string[]).includes(parts[1])) throw notAPicture();
  const bytes = Buffer.from(parts[2] ?? '', 'base64');
  if (bytes.length === 0 || bytes.length > AVATAR.maxBytes) throw notAPicture();
  return bytes;
};

/** The picture as stored: square, `AVATAR.size` pixels, WebP, no metadata. Refuses what is not a picture. */
export const reencodeAvatar = async (bytes: Buffer): Promise<Buffer> => {
  const input = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error', animated: false });
  const meta = await input.metadata().catch(() => undefined);
  if (!meta?.format || !FORMATS.has(meta.format)) throw notAPicture();
  if ((meta.width ?? 0) < MIN_SIDE || (meta.height ?? 0) < MIN_SIDE) throw notAPicture();
  return input
    .rotate()
    .resize(AVATAR.size, AVATAR.size, { fit: 'cover' })
    .webp({ quality: 82 })
    .toBuffer()
    .catch(() => {
      throw notAPicture();
    });
};

const stores = new WeakMap<AvatarConfig, AvatarStore>();
const storeFor = (config: AvatarConfig) => {
  const known = stores.get(config);
  if (known) return known;
  const made = openAvatarStore(config);
  stores.set(config, made);
  return made;
};

export const uploadAvatar = async (ctx: Context, userId: number, image: string): Promise<{ avatar_url: string }> => {
  const picture = await reencodeAvatar(decode(image));
  const name = `${userId}-${createHash('sha256').update(picture).digest('hex').slice(0, 16)}.webp`;
  const url = await storeFor(ctx.config.avatars).save(name, picture);
  await updateProfile(ctx, userId, { avatar_url: url });
  return { avatar_url: url };
};

/**
 * Where uploaded profile pictures are kept (adapters/avatar-store.ts), read by `loadConfig`:
 *
 * AVATAR_DIR        a directory on local disk, served at PUBLIC_URL/avatars/ (default: `avatars` beside
 *                   the SQLite file, else ./data/avatars). Several instances need a shared directory, or:
 * AVATAR_S3_ENDPOINT  an S3-compatible store (AWS S3, MinIO, Cloudflare R2, Aliyun OSS, Tencent COS):
 *                   its endpoint URL, with AVATAR_S3_BUCKET, AVATAR_S3_ACCESS_KEY_ID,
 *                   AVATAR_S3_SECRET_ACCESS_KEY and AVATAR_S3_REGION (us-east-1). Objects are written
 *                   path-style (ENDPOINT/BUCKET/KEY).
 * AVATAR_PUBLIC_URL where browsers fetch the stored pictures (e.g. a CDN in front of the bucket); default
 *                   ENDPOINT/BUCKET for S3, PUBLIC_URL/avatars for local disk.
 */
import { dirname, join } from 'node:path';
import type { Readers } from './readers.ts';

export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface AvatarConfig {
  /** Local directory, used when `s3` is undefined. */
  dir: string;
  s3: S3Location | undefined;
  /** Base URL of a stored picture, without the trailing slash. */
  publicUrl: string;
}

export const readAvatarConfig = (
  { str }: Readers,
  problems: string[],
  { databaseUrl, sqlite, publicUrl }: { databaseUrl: string; sqlite: boolean; publicUrl: string },
): AvatarConfig => {
  const dir = str('AVATAR_DIR') ?? join(sqlite ? dirname(databaseUrl) : './data', 'avatars');
  const endpoint = str('AVATAR_S3_ENDPOINT');
  let s3: S3Location | undefined;
  if (endpoint !== undefined) {
    const bucket = str('AVATAR_S3_BUCKET');
    const accessKeyId = str('AVATAR_S3_ACCESS_KEY_ID');
    const secretAccessKey = str('AVATAR_S3_SECRET_ACCESS_KEY');
    if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
      problems.push(
        `AVATAR_S3_ENDPOINT="${endpoint}" must be an http(s) URL. Fix: e.g. https://s3.us-east-1.amazonaws.com`,
      );
    }
    if (!bucket || !accessKeyId || !secretAccessKey) {
      problems.push(
        'AVATAR_S3_ENDPOINT needs AVATAR_S3_BUCKET, AVATAR_S3_ACCESS_KEY_ID and AVATAR_S3_SECRET_ACCESS_KEY. Fix: set all three, or unset AVATAR_S3_ENDPOINT to keep pictures on local disk.',
      );
    } else {
      s3 = {
        endpoint: endpoint.replace(/\/+$/, ''),
        bucket,
        region: str('AVATAR_S3_REGION') ?? 'us-east-1',
        accessKeyId,
        secretAccessKey,
      };
    }
  }
  const fallback = s3 ? `${s3.endpoint}/${s3.bucket}` : `${publicUrl.replace(/\/+$/, '')}/avatars`;
  return { dir, s3, publicUrl: (str('AVATAR_PUBLIC_URL') ?? fallback).replace(/\/+$/, '') };
};

/**
 * Where profile pictures go once checked and re-encoded (services/account/avatar.ts): a directory on
 * local disk, served by this server at /avatars/, or an S3-compatible bucket written with signed
 * (AWS Signature V4) PUT and DELETE requests. Names are content-addressed, so a stored picture never
 * changes and is cached for a year; a picture replaced, or of an account deleted, is deleted.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AwsClient } from 'aws4fetch';
import type { AvatarConfig, S3Location } from '../config/avatar-config.ts';
import { RetryLater } from '../errors.ts';

export const AVATAR_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const AVATAR_TYPE = 'image/webp';
/** A stored picture's name: the user, then the first 16 hex digits of the picture's SHA-256. */
export const AVATAR_NAME = /^\d{1,15}-[0-9a-f]{16}\.webp$/;

export interface AvatarStore {
  /** Stores the picture under `name`; answers the URL browsers fetch it from. */
  save(name: string, picture: Buffer): Promise<string>;
  /** Deletes the picture stored under `name` (one already gone is no error). */
  remove(name: string): Promise<void>;
  /** The picture stored under `name`; undefined when there is none. */
  read(name: string): Promise<Buffer | undefined>;
}

const onDisk = (dir: string, publicUrl: string): AvatarStore => ({
  async save(name, picture) {
    await mkdir(dir, { recursive: true });
    // Each write its own partial file: the same picture saved at once by two requests renames twice.
    const partial = join(dir, `.${name}.${randomUUID()}.partial`);
    await writeFile(partial, picture);
    await rename(partial, join(dir, name));
    return `${publicUrl}/${name}`;
  },
  async remove(name) {
    await unlink(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  },
  read: (name) =>
    readFile(join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      return undefined;
    }),
});

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

const S3_TIMEOUT_MS = 15_000;

const inBucket = (s3: S3Location, publicUrl: string): AvatarStore => {
  const client = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: s3.region,
    service: 's3',
    // A user waits for the answer: two quick retries of a 5xx, then "try again shortly".
    retries: 2,
    initRetryMs: 100,
  });
  return {
    async save(name, picture) {
      const answer = await client
        .fetch(`${s3.endpoint}/${s3.bucket}/${name}`, {
          method: 'PUT',
          body: new Uint8Array(picture),
          headers: {
            'Content-Type': AVATAR_TYPE,
            'Cache-Control': AVATAR_CACHE_CONTROL,
            // The payload's hash is signed too, so the store refuses a picture changed on the way.
            'X-Amz-Content-Sha256': createHash('sha256').update(picture).digest('hex'),
          },
          signal: AbortSignal.timeout(S3_TIMEOUT_MS),
        })
        .catch(() => undefined);
      await answer?.body?.cancel();
      if (!answer?.ok) throw new RetryLater(30, 'The picture store did not take the picture; try again shortly.');
      return `${publicUrl}/${name}`;
    },
    async remove(name) {
      const answer = await client.fetch(`${s3.endpoint}/${s3.bucket}/${name}`, {
        method: 'DELETE',
        headers: { 'X-Amz-Content-Sha256': EMPTY_SHA256 },
        signal: AbortSignal.timeout(S3_TIMEOUT_MS),
      });
      await answer.body?.cancel();
      // S3 answers 204 whether or not the key existed; some compatible stores answer 404 for a missing one.
      if (!answer.ok && answer.status !== 404)
        throw new Error(`the picture store answered ${answer.status} to a delete`);
    },
    async read(name) {
      const answer = await client.fetch(`${s3.endpoint}/${s3.bucket}/${name}`, {
        headers: { 'X-Amz-Content-Sha256': EMPTY_SHA256 },
        signal: AbortSignal.timeout(S3_TIMEOUT_MS),
      });
      if (answer.status === 404) {
        await answer.body?.cancel();
        return undefined;
      }
      if (!answer.ok) throw new Error(`the picture store answered ${answer.status} to a read`);
      return Buffer.from(await answer.arrayBuffer());
    },
  };
};

export const openAvatarStore = (config: AvatarConfig): AvatarStore =>
  config.s3 ? inBucket(config.s3, config.publicUrl) : onDisk(config.dir, config.publicUrl);

/**
 * Profile pictures: what is uploaded is checked to be a picture by its content, re-encoded to a small
 * square WebP without metadata, stored (local disk served at /avatars/, or an S3-compatible bucket
 * written with signed requests) and set as the profile's avatar_url.
 */
import { readdir } from 'node:fs/promises';
import { AVATAR } from '@edupass/protocol';
import { A, type Account, expectError, signUp } from '@edupass/test-kit/accounts';
import { useTestServer } from '@edupass/test-kit/harness';
import { S3_KEYS, type S3Peer, s3Avatars, startS3Peer } from '@edupass/test-kit/s3-peer';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** A 600×400 photo-like PNG carrying EXIF (a camera's and a copyright note) that must not survive. */
const photo = () =>
  sharp({ create: { width: 600, height: 400, channels: 3, background: '#3a7bd5' } })
    .composite([
      {
        input: Buffer.from('<svg width="200" height="200"><circle cx="100" cy="100" r="90" fill="#f5a623"/></svg>'),
        left: 200,
        top: 100,
      },
    ])
    .withExif({ IFD0: { Copyright: 'secret place', Make: 'PhoneCam' } })
    .png()
    .toBuffer();

type Call = ReturnType<typeof useTestServer>['call'];

/** Another picture: the same photo in another colour (so another stored name). */
const otherPhoto = (background: string) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background } })
    .png()
    .toBuffer();

/** Uploads the photo as `user`'s profile picture (with no session when no user). */
const uploadPhoto = async (call: Call, user?: Account) =>
  call<{ avatar_url: string }>('POST', `${A}/avatar`, { image: dataUrl(await photo()) }, user && { token: user.token });

const profileOf = async (call: Call, user: Account) =>
  (await call<{ avatar_url: string }>('GET', `${A}/profile`, undefined, { token: user.token })).body;

describe('on local disk', () => {
  const { server, call } = useTestServer();
  let user: Account;
  beforeAll(async () => {
    user = await signUp(server);
  });

  test('a photo becomes a 256×256 WebP without metadata, served for a year, and the profile shows it', async () => {
    const answer = await uploadPhoto(call, user);
    expect(answer.status).toBe(200);
    const url = answer.body.avatar_url;
    expect(url).toMatch(new RegExp(`^${server.url}/avatars/${user.userId}-[0-9a-f]{16}\\.webp$`));
    expect((await profileOf(call, user)).avatar_url).toBe(url);

    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: AVATAR.size,
      height: AVATAR.size,
    });
    expect(meta.exif).toBeUndefined();
  });

  test('what is not a picture is refused with E_1 and the profile keeps its picture', async () => {
    const before = (await profileOf(call, user)).avatar_url;
    const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const tooBig = Buffer.alloc(AVATAR.maxBytes + 1, 1);
    for (const image of [
      dataUrl(Buffer.from('not a picture at all, only words')),
      dataUrl(svg, 'image/svg+xml'),
      dataUrl(svg, 'image/png'),
      dataUrl(tiny),
      dataUrl(tooBig),
      'https://example.com/me.png',
      dataUrl(Buffer.alloc(0)),
    ]) {
      const answer = await call('POST', `${A}/avatar`, { image }, { token: user.token });
      expectError(answer, 'E_1');
      expect((answer.body as { error_message: string }).error_message).toContain('PNG, JPEG, WebP or GIF');
    }
    expect((await profileOf(call, user)).avatar_url).toBe(before);
  });

  test('only a signed-in user uploads; only stored pictures are served', async () => {
    expectError(await uploadPhoto(call), 'E_0');
    for (const path of [
      '/avatars/..%2F..%2Fetc%2Fpasswd',
      '/avatars/.partial',
      `/avatars/${user.userId}-0000000000000000.webp`,
    ]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    }
  });
});

describe('stored pictures on local disk', () => {
  const { server, call } = useTestServer();
  const filesOf = async (userId: number) =>
    (await readdir(server.config.avatars.dir).catch(() => [] as string[])).filter((f) => f.startsWith(`${userId}-`));

  test('the same picture uploaded many times at once: never a 500, one stored picture', async () => {
    const user = await signUp(server);
    const image = dataUrl(await photo());
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `${A}/avatar`, { image }, { token: user.token })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await filesOf(user.userId)).toHaveLength(1);
  });

  test('a replaced picture is deleted, and the last one goes with the account', async () => {
    const user = await signUp(server);
    const first = await call<{ avatar_url: string }>(
      'POST',
      `${A}/avatar`,
      { image: dataUrl(await otherPhoto('#aa3355')) },
      { token: user.token },
    );
    expect(first.status).toBe(200);
    const second = await uploadPhoto(call, user);
    expect(second.status).toBe(200);
    expect((await fetch(first.body.avatar_url)).status).toBe(404);
    expect(await filesOf(user.userId)).toEqual([second.body.avatar_url.split('/').at(-1)]);
    // A link set by hand replaces it too.
    expect(
      (await call('PATCH', `${A}/info`, { avatar_url: 'https://example.com/me.png' }, { token: user.token })).status,
    ).toBe(204);
    expect(await filesOf(user.userId)).toEqual([]);
    const third = await uploadPhoto(call, user);
    expect((await call('DELETE', `${A}/account`, undefined, { token: user.token })).status).toBe(204);
    expect((await fetch(third.body.avatar_url)).status).toBe(404);
    expect(await filesOf(user.userId)).toEqual([]);
  });

  test("another user's picture linked as one's own stays theirs: replacing the link or deleting the account leaves it", async () => {
    const owner = await signUp(server);
    const other = await signUp(server);
    const uploaded = await uploadPhoto(call, owner);
    expect(uploaded.status).toBe(200);
    const url = uploaded.body.avatar_url;
    const link = (avatar_url: string) => call('PATCH', `${A}/info`, { avatar_url }, { token: other.token });
    expect((await link(url)).status).toBe(204);
    expect((await link('')).status).toBe(204);
    expect((await link(url)).status).toBe(204);
    expect((await call('DELETE', `${A}/account`, undefined, { token: other.token })).status).toBe(204);
    expect((await fetch(url)).status).toBe(200);
    expect(await filesOf(owner.userId)).toEqual([url.split('/').at(-1)]);
    expect((await profileOf(call, owner)).avatar_url).toBe(url);
  });

  test('uploads are rationed per user: past the limit AC3_23 with the seconds to wait', async () => {
    const user = await signUp(server);
    const image = dataUrl(await photo());
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await call('POST', `${A}/avatar`, { image }, { token: user.token }));
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0] as (typeof answers)[number], 'AC3_23');
    expect(((refused[0] as (typeof answers)[number]).body as { retry_after: number }).retry_after).toBeGreaterThan(0);
  });
});

describe('in an S3-compatible bucket', () => {
  let peer: S3Peer;
  beforeAll(async () => {
    peer = await startS3Peer();
  });
  afterAll(() => peer?.close());
  const s3 = (secretAccessKey = S3_KEYS.secretAccessKey) => ({
    get avatars() {
      return s3Avatars(peer, secretAccessKey);
    },
  });

  describe('with the right keys', () => {
    const { server, call } = useTestServer(s3());
    test('the picture is written by a signed PUT, typed and cached, and the profile points at the bucket', async () => {
      const user = await signUp(server);
      const answer = await uploadPhoto(call, user);
      expect(answer.status).toBe(200);
      expect(answer.body.avatar_url).toMatch(new RegExp(`^${peer.url}/avatars/${user.userId}-[0-9a-f]{16}\\.webp$`));
      const key = answer.body.avatar_url.split('/').at(-1) ?? '';
      const stored = peer.objects.get(key);
      expect(stored?.contentType).toBe('image/webp');
      expect(stored?.cacheControl).toBe('public, max-age=31536000, immutable');
      expect((await sharp(stored?.body).metadata()).width).toBe(AVATAR.size);
      expect((await profileOf(call, user)).avatar_url).toBe(answer.body.avatar_url);
      expect(peer.refused).toBe(0);
    });

    test('a replaced picture is deleted from the bucket, and the last one goes with the account', async () => {
      const user = await signUp(server);
      const keyOf = (url: string) => url.split('/').at(-1) ?? '';
      const first = await call<{ avatar_url: string }>(
        'POST',
        `${A}/avatar`,
        { image: dataUrl(await otherPhoto('#2255aa')) },
        { token: user.token },
      );
      expect(first.status).toBe(200);
      const second = await uploadPhoto(call, user);
      expect(peer.objects.has(keyOf(first.body.avatar_url))).toBe(false);
      expect(peer.objects.has(keyOf(second.body.avatar_url))).toBe(true);
      expect((await call('DELETE', `${A}/account`, undefined, { token: user.token })).status).toBe(204);
      expect(peer.objects.has(keyOf(second.body.avatar_url))).toBe(false);
      expect(peer.refused).toBe(0);
    });

    test('a store that is down: 503 E_10 with Retry-After, the profile unchanged', async () => {
      const user = await signUp(server);
      peer.down = true;
      try {
        const answer = await uploadPhoto(call, user);
        expectError(answer, 'E_10');
        expect(answer.headers.get('retry-after')).toBeTruthy();
      } finally {
        peer.down = false;
      }
      expect((await profileOf(call, user)).avatar_url).toBe('');
    });
  });

  describe('with a wrong secret', () => {
    const { server, call } = useTestServer(s3('not-the-secret'));
    test('the store refuses the signature; nothing is stored and the profile is unchanged', async () => {
      const user = await signUp(server);
      const before = peer.objects.size;
      const refused = peer.refused;
      expectError(await uploadPhoto(call, user), 'E_10');
      expect(peer.refused).toBe(refused + 1);
      expect(peer.objects.size).toBe(before);
      expect((await profileOf(call, user)).avatar_url).toBe('');
    });
  });
});

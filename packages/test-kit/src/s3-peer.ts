/**
 * A stand-in for an S3-compatible object store: path-style PUT, GET and DELETE of /<bucket>/<key>, each request
 * checked as S3 checks it — the AWS Signature V4 recomputed from the request with the peer's secret, the
 * signed payload hash compared with the body's — and refused with S3's 403 XML when it does not match.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsV4Signer } from 'aws4fetch';

export const S3_KEYS = { accessKeyId: 'AKIDEDUPASSTEST', secretAccessKey: 'peer-secret-key', region: 'cn-north-1' };

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

export interface S3Peer {
  url: string;
  bucket: string;
  objects: Map<string, StoredObject>;
  /** Requests refused for a bad signature or hash. */
  refused: number;
  /** While true, every request answers 503 (the store is down). */
  down: boolean;
  close(): Promise<void>;
}

const bodyOf = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const signedHeaderNames = (authorization: string) => /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? [];

/** Whether the request carries the signature S3 would compute for it. */
const signatureHolds = async (request: IncomingMessage, body: Buffer) => {
  const authorization = request.headers.authorization ?? '';
  const hash = request.headers['x-amz-content-sha256'];
  if (hash !== createHash('sha256').update(body).digest('hex')) return false;
  const headers: Record<string, string> = {};
  for (const name of signedHeaderNames(authorization)) {
    const value = request.headers[name];
    if (name !== 'host' && typeof value === 'string') headers[name] = value;
  }
  const expected = await new AwsV4Signer({
    method: request.method ?? 'GET',
    url: `http://${request.headers.host}${request.url}`,
    headers,
    body: new Uint8Array(body),
    service: 's3',
    datetime: String(request.headers['x-amz-date'] ?? ''),
    ...S3_KEYS,
  }).sign();
  return expected.headers.get('authorization') === authorization;
};

export const startS3Peer = async (bucket = 'avatars'): Promise<S3Peer> => {
  const peer = { objects: new Map<string, StoredObject>(), refused: 0, down: false };
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    if (peer.down) return response.writeHead(503).end('<Error><Code>SlowDown</Code></Error>');
    const key = decodeURIComponent(request.url ?? '').replace(`/${bucket}/`, '');
    if (request.method === 'GET') {
      const object = peer.objects.get(key);
      if (!object) return response.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      return response.writeHead(200, { 'content-type': object.contentType ?? '' }).end(object.body);
    }
    if ((request.method !== 'PUT' && request.method !== 'DELETE') || !(await signatureHolds(request, body))) {
      peer.refused += 1;
      return response.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
    }
    if (request.method === 'DELETE') {
      // As S3: 204 whether or not the key was there.
      peer.objects.delete(key);
      return response.writeHead(204).end();
    }
    peer.objects.set(key, {
      body,
      contentType: request.headers['content-type'],
      cacheControl: request.headers['cache-control'],
    });
    response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(peer, {
    url: `http://127.0.0.1:${port}`,
    bucket,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
};

/** The avatar settings that store pictures in `peer`'s bucket (AVATAR_S3_*), signed with `secretAccessKey`. */
export const s3Avatars = (peer: S3Peer, secretAccessKey = S3_KEYS.secretAccessKey) => ({
  dir: '',
  s3: {
    endpoint: peer.url,
    bucket: peer.bucket,
    region: S3_KEYS.region,
    accessKeyId: S3_KEYS.accessKeyId,
    secretAccessKey,
  },
  publicUrl: `${peer.url}/${peer.bucket}`,
});

/**
 * The request signatures of Aliyun's RPC APIs (1.0, HMAC-SHA1) and Tencent Cloud API 3.0
 * (TC3-HMAC-SHA256), checked the way each vendor documents it — written here independently of the
 * server's signing code, so the stand-ins (sms-peers.ts, realname-peers.ts) catch a signing mistake.
 * Each answers the vendor's own refusal, or undefined for a good signature.
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Byte-wise RFC 3986 encoding, as Aliyun's signing documentation describes it. */
const rfc3986 = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

export interface AliyunRefusal {
  status: number;
  body: Record<string, string>;
}

/** An Aliyun RPC form POST: its AccessKeyId, signature, method, version, nonce and timestamp (15 minutes). */
export const aliyunRpcRefusal = (
  request: IncomingMessage,
  params: Record<string, string>,
  accessKeyId: string,
  secret: string,
  requestId: string,
  host: string,
): AliyunRefusal | undefined => {
  const { Signature: signature, ...signed } = params;
  const canonical = Object.keys(signed)
    .sort()
    .map((key) => `${rfc3986(key)}=${rfc3986(signed[key] ?? '')}`)
    .join('&');
  const stringToSign = `${request.method}&${rfc3986('/')}&${rfc3986(canonical)}`;
  const expected = createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
  const age = Math.abs(Date.now() - Date.parse(params.Timestamp ?? ''));
  if (params.AccessKeyId !== accessKeyId) {
    return {
      status: 404,
      body: {
        RequestId: requestId,
        Code: 'InvalidAccessKeyId.NotFound',
        Message: 'Specified access key is not found.',
      },
    };
  }
  if (
    signature !== expected ||
    params.SignatureMethod !== 'HMAC-SHA1' ||
    params.SignatureVersion !== '1.0' ||
    !params.SignatureNonce ||
    !(age < 15 * 60_000)
  ) {
    return {
      status: 400,
      body: {
        RequestId: requestId,
        HostId: host,
        Code: 'SignatureDoesNotMatch',
        Message: `Specified signature is not matched with our calculation. server string to sign is:${stringToSign}`,
        Recommend: 'https://next.api.aliyun.com/troubleshoot',
      },
    };
  }
  return undefined;
};

const sha256hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const hmac256 = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value, 'utf8').digest();

/** A Tencent Cloud API 3.0 call: its Authorization header, SecretId, timestamp (5 minutes) and signature. */
export const tencentTc3Refusal = (
  request: IncomingMessage,
  body: string,
  secretId: string,
  secretKey: string,
): { code: string; message: string } | undefined => {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/(\w+)\/tc3_request, SignedHeaders=([\w;-]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) {
    return {
      code: 'AuthFailure.InvalidAuthorization',
      message: 'Authorization header does not comply with TencentCloud API standard.',
    };
  }
  const [, id, date, service, signedHeaders = '', signature] = match;
  if (id !== secretId) {
    return {
      code: 'AuthFailure.SecretIdNotFound',
      message: 'The SecretId is not found, please ensure that your SecretId is correct.',
    };
  }
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!(Math.abs(Date.now() / 1000 - timestamp) < 300)) {
    return { code: 'AuthFailure.SignatureExpire', message: 'Signature expired.' };
  }
  const headerNames = signedHeaders.split(';');
  const canonicalHeaders = headerNames
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const [path = '/', query = ''] = (request.url ?? '/').split('?');
  const canonicalRequest = `${request.method}\n${path}\n${query}\n${canonicalHeaders}\n${signedHeaders}\n${sha256hex(body)}`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256hex(canonicalRequest)}`;
  const key = hmac256(hmac256(hmac256(`TC3${secretKey}`, date ?? ''), service ?? ''), 'tc3_request');
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  if (
    signature !== expected ||
    !headerNames.includes('host') ||
    new Date(timestamp * 1000).toISOString().slice(0, 10) !== date
  ) {
    return {
      code: 'AuthFailure.SignatureFailure',
      message: 'The provided credentials could not be validated. Please check your signature is correct.',
    };
  }
  return undefined;
};

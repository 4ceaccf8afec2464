/**
 * Aliyun's RPC (POP) request signature, version 1.0 with HMAC-SHA1: parameters sorted by name,
 * RFC 3986 percent-encoded, `METHOD&%2F&<encoded canonical query>` signed with `<secret>&`.
 */
import { createHmac, randomUUID } from 'node:crypto';

/** RFC 3986: encodeURIComponent leaves !'()* alone, Aliyun wants them encoded. */
const percentEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const canonicalQuery = (params: Record<string, string>) =>
  Object.keys(params)
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key] ?? '')}`)
    .join('&');

const rpcSignature = (method: string, params: Record<string, string>, secret: string) =>
  createHmac('sha1', `${secret}&`)
    .update(`${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`)
    .digest('base64');

export interface RpcCall {
  action: string;
  version: string;
  /** `RegionId`, for the APIs that take one. */
  regionId?: string | undefined;
  accessKeyId: string;
  accessKeySecret: string;
  params: Record<string, string>;
  now?: Date;
}

/** The form body of a signed POST. */
export const signedRpcBody = (call: RpcCall): string => {
  const params: Record<string, string> = {
    AccessKeyId: call.accessKeyId,
    Action: call.action,
    Format: 'JSON',
    ...(call.regionId && { RegionId: call.regionId }),
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: (call.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: call.version,
    ...call.params,
  };
  return `${canonicalQuery(params)}&Signature=${percentEncode(rpcSignature('POST', params, call.accessKeySecret))}`;
};

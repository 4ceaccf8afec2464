/**
 * Local stand-ins for the real-name vendors' two-element ID checks, on the vendors' own protocols:
 * Tencent Cloud FaceId `IdCardVerification` (API 3.0, TC3-HMAC-SHA256) and Aliyun Cloudauth
 * `Id2MetaVerify` (RPC, signature 1.0). Each checks the request signature (vendor-signatures.ts) and
 * answers from its `register` (ID number → name): the right name matches, another name does not, an
 * unknown number has no record. `down` makes the register answer the vendor's "service error".
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { json, type PeerRequest, readBody } from './sms-peers.ts';
import { aliyunRpcRefusal, tencentTc3Refusal } from './vendor-signatures.ts';

export interface RealnamePeer {
  url: string;
  requests: PeerRequest[];
  /** ID number → the name the register holds for it. */
  register: Map<string, string>;
  /** The register is out of service: every check answers the vendor's service error. */
  down: boolean;
  close(): Promise<void>;
}

const serve = async (
  handle: (peer: RealnamePeer, request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<RealnamePeer> => {
  let peer: RealnamePeer | undefined;
  const server = createServer((request, response) => {
    readBody(request).then((body) => peer && handle(peer, request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    register: new Map(),
    down: false,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return peer;
};

/** Tencent FaceId IdCardVerification: `Result` "0" match, "-1" mismatch, "-5" no record, "-4" service error. */
export const tencentRealnamePeer = (secretId: string, secretKey: string) =>
  serve((peer, request, body, response) => {
    const requestId = randomUUID();
    const answer = (fields: Record<string, unknown>) =>
      json(response, 200, { Response: { ...fields, RequestId: requestId } });
    const refusal = tencentTc3Refusal(request, body, secretId, secretKey);
    if (refusal) return answer({ Error: { Code: refusal.code, Message: refusal.message } });
    const action = String(request.headers['x-tc-action'] ?? '');
    if (action !== 'IdCardVerification' || request.headers['x-tc-version'] !== '2018-03-01') {
      return answer({ Error: { Code: 'InvalidAction', Message: `The action ${action} is not found.` } });
    }
    const params = JSON.parse(body) as { IdCard?: unknown; Name?: unknown };
    peer.requests.push({ action, params });
    if (typeof params.IdCard !== 'string' || typeof params.Name !== 'string') {
      return answer({ Error: { Code: 'MissingParameter', Message: 'The request is missing a required parameter.' } });
    }
    if (peer.down) return answer({ Result: '-4', Description: '证件库服务异常' });
    const held = peer.register.get(params.IdCard);
    if (held === undefined) return answer({ Result: '-5', Description: '证件库中无此身份证记录' });
    return held === params.Name
      ? answer({ Result: '0', Description: '姓名和身份证号一致' })
      : answer({ Result: '-1', Description: '姓名和身份证号不一致' });
  });

/** Aliyun Cloudauth Id2MetaVerify: Code "200", `ResultObject.BizCode` "1" match, "2" mismatch, "3" no record. */
export const aliyunRealnamePeer = (accessKeyId: string, secret: string) =>
  serve((peer, request, body, response) => {
    const params = Object.fromEntries(new URLSearchParams(body));
    const RequestId = randomUUID().toUpperCase();
    const refusal = aliyunRpcRefusal(request, params, accessKeyId, secret, RequestId, 'cloudauth.aliyuncs.com');
    if (refusal) return json(response, refusal.status, refusal.body);
    const action = params.Action ?? '';
    if (action !== 'Id2MetaVerify' || params.Version !== '2019-03-07') {
      return json(response, 404, { RequestId, Code: 'InvalidAction.NotFound', Message: 'Specified api is not found.' });
    }
    peer.requests.push({ action, params });
    if (params.ParamType !== 'normal' || !params.IdentifyNum || !params.UserName) {
      return json(response, 400, { RequestId, Code: '400', Message: '参数不能为空' });
    }
    if (peer.down) return json(response, 500, { RequestId, Code: '402', Message: '权威源服务异常' });
    const held = peer.register.get(params.IdentifyNum);
    const bizCode = held === undefined ? '3' : held === params.UserName ? '1' : '2';
    return json(response, 200, { RequestId, Code: '200', Message: 'success', ResultObject: { BizCode: bizCode } });
  });

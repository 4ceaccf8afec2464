/**
 * Local stand-ins for the five captcha vendors' verify APIs, speaking their protocols and checking
 * their documented signatures. A result whose text starts with "pass" passes; anything else fails.
 * Every request is recorded, with whether its signature checked out.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { neteaseSignature } from '../../server/src/adapters/captcha-vendors/netease.ts';
import type { CaptchaConfig } from '../../server/src/config/captcha-config.ts';
import { loadConfig } from '../../server/src/config/config.ts';
import { aliyunRpcRefusal, tencentTc3Refusal } from './vendor-signatures.ts';

export const PEER_KEYS = {
  geetest: { id: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6', key: 'geetest-private-key' },
  tencent: { appId: '190000001', appSecretKey: 'app-secret', secretId: 'AKIDtest', secretKey: 'tencent-secret' },
  netease: { captchaId: 'ne-captcha-id', secretId: 'ne-secret-id', secretKey: 'ne-secret-key' },
  nextdata: { organization: 'sm-org', accessKey: 'sm-access-key', appId: 'default' },
  aliyun: { prefix: 'ali-prefix', sceneId: 'scene-1', accessKeyId: 'ali-key-id', accessKeySecret: 'ali-secret' },
} as const;

export interface PeerCall {
  vendor: string;
  signatureOk: boolean;
  params: Record<string, string>;
}

const md5 = (value: string) => createHash('md5').update(value).digest('hex');

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    request.on('end', () => resolve(text));
  });

export const startVendorPeers = async (options: { geetestDown?: boolean } = {}) => {
  const calls: PeerCall[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://peer');
    const text = await readBody(request);
    const send = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const formParams = () => Object.fromEntries(new URLSearchParams(text));
    if (url.pathname === '/geetest/register.php') {
      const params = Object.fromEntries(url.searchParams);
      calls.push({ vendor: 'geetest-register', signatureOk: params.gt === PEER_KEYS.geetest.id, params });
      if (options.geetestDown) {
        response.writeHead(503).end();
        return;
      }
      return send({ challenge: md5(`origin-${Date.now()}-${Math.random()}`) });
    }
    if (url.pathname === '/geetest/validate.php') {
      const params = formParams();
      const signatureOk = params.captchaid === PEER_KEYS.geetest.id;
      calls.push({ vendor: 'geetest', signatureOk, params });
      const good = signatureOk && (params.seccode ?? '').startsWith('pass');
      return send({ seccode: good ? md5(params.seccode ?? '') : 'false' });
    }
    if (url.pathname === '/tencent/') {
      const signatureOk =
        tencentTc3Refusal(request, text, PEER_KEYS.tencent.secretId, PEER_KEYS.tencent.secretKey) === undefined &&
        request.headers['x-tc-version'] === '2019-07-22' &&
        request.headers['x-tc-action'] === 'DescribeCaptchaResult';
      const body = JSON.parse(text) as Record<string, unknown>;
      calls.push({
        vendor: 'tencent',
        signatureOk,
        params: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])),
      });
      if (!signatureOk) {
        return send({
          Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad signature' }, RequestId: 'r' },
        });
      }
      const good =
        body.CaptchaAppId === Number(PEER_KEYS.tencent.appId) &&
        body.AppSecretKey === PEER_KEYS.tencent.appSecretKey &&
        body.CaptchaType === 9 &&
        String(body.Ticket).startsWith('pass');
      return send({
        Response: { CaptchaCode: good ? 1 : 9, CaptchaMsg: good ? 'OK' : 'ticket reused', RequestId: 'r' },
      });
    }
    if (url.pathname === '/netease/verify') {
      const params = formParams();
      const signatureOk =
        params.secretId === PEER_KEYS.netease.secretId &&
        params.version === 'v2' &&
        params.signature === neteaseSignature(params, PEER_KEYS.netease.secretKey);
      calls.push({ vendor: 'netease', signatureOk, params });
      if (!signatureOk) return send({ error: 415, msg: 'signature error', result: false });
      return send({
        error: 0,
        msg: 'ok',
        result: params.captchaId === PEER_KEYS.netease.captchaId && (params.validate ?? '').startsWith('pass'),
      });
    }
    if (url.pathname === '/nextdata/fverify') {
      const body = JSON.parse(text) as Record<string, string>;
      const signatureOk = body.accessKey === PEER_KEYS.nextdata.accessKey;
      calls.push({ vendor: 'nextdata', signatureOk, params: body });
      if (!signatureOk) return send({ code: 9100, message: 'accessKey invalid' });
      return send({
        code: 1100,
        message: 'ok',
        requestId: 'r',
        riskLevel: (body.rid ?? '').startsWith('pass') ? 'PASS' : 'REJECT',
      });
    }
    if (url.pathname === '/aliyun/') {
      const params = formParams();
      const signatureOk =
        aliyunRpcRefusal(
          request,
          params,
          PEER_KEYS.aliyun.accessKeyId,
          PEER_KEYS.aliyun.accessKeySecret,
          'r',
          'captcha.aliyuncs.com',
        ) === undefined &&
        params.Action === 'VerifyIntelligentCaptcha' &&
        params.Version === '2023-03-05';
      calls.push({ vendor: 'aliyun', signatureOk, params });
      if (!signatureOk) return send({ Code: 'SignatureDoesNotMatch', Message: 'bad signature', Success: false });
      const good = params.SceneId === PEER_KEYS.aliyun.sceneId && (params.CaptchaVerifyParam ?? '').startsWith('pass');
      return send({
        RequestId: 'r',
        Code: 'Success',
        Success: true,
        Result: { VerifyResult: good, VerifyCode: good ? 'T001' : 'F001' },
      });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    /** A captcha configuration with every vendor pointed at this peer. */
    captchaConfig(overrides: Partial<CaptchaConfig> = {}): CaptchaConfig {
      return {
        ...loadConfig({}).captcha,
        geetest: { ...PEER_KEYS.geetest, apiUrl: `${url}/geetest` },
        tencent: { ...PEER_KEYS.tencent, endpoint: `${url}/tencent/` },
        netease: { ...PEER_KEYS.netease, endpoint: `${url}/netease/verify` },
        nextdata: { ...PEER_KEYS.nextdata, endpoint: `${url}/nextdata/fverify` },
        aliyun: { ...PEER_KEYS.aliyun, endpoint: `${url}/aliyun` },
        ...overrides,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type VendorPeers = Awaited<ReturnType<typeof startVendorPeers>>;

/**
 * The optional adult check of a guardian through a real-name vendor (services/edu/family/adult-check.ts):
 * a name and a mainland ID number checked against the vendor's register (two elements). Unset: no
 * check; set, a guardian passes it before consenting.
 *
 * REALNAME_PROVIDER   tencent (FaceId IdCardVerification), aliyun (Cloudauth Id2MetaVerify) or dev
 *                     (no vendor: a number with a valid check digit matches; refused in production).
 * REALNAME_ACCESS_KEY_ID, REALNAME_ACCESS_KEY_SECRET  Tencent SecretId and SecretKey / Aliyun AccessKey.
 * REALNAME_ENDPOINT   https://faceid.tencentcloudapi.com or https://cloudauth.aliyuncs.com.
 * REALNAME_REGION     ap-guangzhou (Tencent) or cn-hangzhou (Aliyun).
 * REALNAME_TIMEOUT_MS time allowed for the vendor's answer (5000).
 */
import type { Readers } from './readers.ts';

export const REALNAME_PROVIDERS = ['tencent', 'aliyun', 'dev'] as const;
export type RealnameProvider = (typeof REALNAME_PROVIDERS)[number];

export interface RealnameConfig {
  provider: RealnameProvider;
  accessKeyId: string;
  accessKeySecret: string;
  endpoint: string;
  region: string;
  timeoutMs: number;
}

const DEFAULTS = {
  tencent: { endpoint: 'https://faceid.tencentcloudapi.com', region: 'ap-guangzhou' },
  aliyun: { endpoint: 'https://cloudauth.aliyuncs.com', region: 'cn-hangzhou' },
  dev: { endpoint: '', region: '' },
} as const;

export const readRealnameConfig = (
  { int, str, url }: Readers,
  problems: string[],
  production: boolean,
): { realname: RealnameConfig | undefined } => {
  const provider = str('REALNAME_PROVIDER');
  if (provider === undefined || provider === 'off') return { realname: undefined };
  if (!(REALNAME_PROVIDERS as readonly string[]).includes(provider)) {
    problems.push(
      `REALNAME_PROVIDER="${provider}" must be tencent, aliyun or dev. Fix: e.g. REALNAME_PROVIDER=tencent, or unset it.`,
    );
    return { realname: undefined };
  }
  const chosen = provider as RealnameProvider;
  if (chosen === 'dev' && production) {
    problems.push(
      'REALNAME_PROVIDER=dev checks nobody: it is for development. Fix: REALNAME_PROVIDER=tencent or aliyun, or unset it.',
    );
  }
  const required = (name: string, hint: string) => {
    const value = str(name);
    if (value === undefined && chosen !== 'dev') {
      problems.push(`${name} is needed with REALNAME_PROVIDER=${chosen}. Fix: ${hint}`);
    }
    return value ?? '';
  };
  const tencent = chosen === 'tencent';
  return {
    realname: {
      provider: chosen,
      accessKeyId: required(
        'REALNAME_ACCESS_KEY_ID',
        tencent ? 'the SecretId of an API key' : 'the AccessKey ID of a RAM user',
      ),
      accessKeySecret: required('REALNAME_ACCESS_KEY_SECRET', tencent ? 'the SecretKey' : 'the AccessKey secret'),
      endpoint:
        chosen === 'dev'
          ? ''
          : url('REALNAME_ENDPOINT', DEFAULTS[chosen].endpoint, ['http:', 'https:']).replace(/\/+$/, ''),
      region: str('REALNAME_REGION') ?? DEFAULTS[chosen].region,
      timeoutMs: int('REALNAME_TIMEOUT_MS', 5000, 100, 60_000),
    },
  };
};

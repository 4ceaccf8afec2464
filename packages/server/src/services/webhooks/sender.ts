/**
 * One delivery attempt over HTTP: POST the body with its headers, no redirects followed (a redirect
 * is a failure, and could lead inside), answer read and dropped, within the timeout. Any 2xx counts.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { checkWebhookUrl, guardedLookup } from './target.ts';

export interface AttemptResult {
  ok: boolean;
  /** The receiver's status; 0 when none came. */
  status: number;
  error: string;
  durationMs: number;
}

export interface Post {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

const USER_AGENT = 'EduPass-Webhooks/1';
const ERROR_MAX = 300;

const send = ({ url, headers, body, timeoutMs, allowPrivate }: Post): Promise<{ status: number }> =>
  new Promise((resolve, reject) => {
    const target = checkWebhookUrl(url, allowPrivate);
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...headers,
        'content-length': Buffer.byteLength(body),
        'user-agent': USER_AGENT,
      },
      lookup: guardedLookup(allowPrivate),
      timeout: timeoutMs,
    });
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0 });
      });
      response.on('error', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0 });
      });
    });
    request.end(body);
  });

export const postWebhook = async (post: Post): Promise<AttemptResult> => {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const { status } = await send(post);
    const ok = status >= 200 && status < 300;
    return { ok, status, error: ok ? '' : `HTTP ${status}`, durationMs: durationMs() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, status: 0, error: message.slice(0, ERROR_MAX), durationMs: durationMs() };
  }
};

/** What a provider adapter gets from the flow, and what it must give back. */
import type { CaptchaRuleResponse, CaptchaTicketResponse } from '@edupass/protocol';
import type { CaptchaApi } from '../api.ts';
import type { Page, Timers } from '../globals.ts';
import type { CaptchaLocale } from '../locale.ts';
import type { Overlay } from '../overlay.ts';

export interface ProviderContext {
  rule: CaptchaRuleResponse;
  request: { identity: string; scene: string };
  api: CaptchaApi;
  page: Page;
  overlay: Overlay;
  timers: Timers;
  /** The language of this verification; each adapter passes it on in its vendor's own option and values. */
  locale: CaptchaLocale;
  /** Loads the provider's script from its configured URL, with retries. */
  loadScript(): Promise<void>;
  /** Run when the flow ends, however it ends (the vendor widget is torn down there). */
  onCleanup(fn: () => void): void;
  /** Aliyun's SceneId the widget starts with. */
  aliyunSceneId: string;
  /** Shumei's appId (the rule's appid is the organization). */
  nextdataAppId: string;
}

/** A ticket on pass, 'closed' when the user closed the vendor's own dialog; failures throw `CaptchaError`. */
export type ProviderOutcome = CaptchaTicketResponse | 'closed';

export interface Provider {
  /** Whether the widget draws into our box (the others bring their own dialog over our mask). */
  box: boolean;
  run(context: ProviderContext): Promise<ProviderOutcome>;
}

/** A promise with its settle functions, for vendor APIs that answer through callbacks. */
export const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/** Reads a callable from a vendor object without trusting its shape. */
export const method = (target: unknown, name: string): ((...args: unknown[]) => unknown) | undefined => {
  if (typeof target !== 'object' && typeof target !== 'function') return undefined;
  if (target === null) return undefined;
  const value = (target as Record<string, unknown>)[name];
  return typeof value === 'function'
    ? (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args)
    : undefined;
};

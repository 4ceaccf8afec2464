/**
 * A page with the captcha SDK bundled as a site ships it, served from the test server's origin so
 * its calls reach the real server; vendor scripts come from a fake CDN the test controls.
 */
import { resolve } from 'node:path';
import { bundleForBrowser } from '@edupass/test-kit/browser';
import type { Browser, Page } from 'playwright-core';
import { type MockedVendor, VENDOR_MOCKS } from './captcha-vendor-mocks.ts';
import { newTestContext } from './pages.ts';

export const CDN = 'https://vendor-cdn.test';

let bundle: Promise<string> | undefined;
const captchaBundle = () => {
  bundle ??= bundleForBrowser(resolve(import.meta.dirname, '../../../captcha/src/index.ts'), 'EduPassCaptcha');
  return bundle;
};

export interface CaptchaOutcome {
  kind: 'success' | 'fail' | 'close';
  ticket?: string;
  appid?: string;
  rule?: string;
  name?: string;
  message?: string;
  serverCode?: string;
  /** ms from the outcome until the mask left the page. */
  maskGoneAfter?: number;
}

export const openCaptchaPage = async (browser: Browser, serverUrl: string): Promise<Page> => {
  const page = await (await newTestContext(browser)).newPage();
  await page.route(`${serverUrl}/captcha-test-page`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><head><title>captcha test</title></head><body><main><h1>Sign in</h1></main></body></html>',
    }),
  );
  await page.route(`${CDN}/**`, (route) => {
    const name = new URL(route.request().url()).pathname.slice(1).replace(/\.js$/, '').toUpperCase();
    if (name in VENDOR_MOCKS)
      return route.fulfill({ contentType: 'text/javascript', body: VENDOR_MOCKS[name as MockedVendor] });
    return route.abort('connectionrefused');
  });
  await page.goto(`${serverUrl}/captcha-test-page`);
  await page.addScriptTag({ content: await captchaBundle() });
  return page;
};

export const scriptsFor = (broken?: MockedVendor) =>
  Object.fromEntries(
    (Object.keys(VENDOR_MOCKS) as MockedVendor[]).map((v) => [
      v,
      `${CDN}/${v === broken ? 'missing' : v.toLowerCase()}.js`,
    ]),
  );

/** Starts the flow in the page; resolves with the callback that fired and when the mask went away. */
export const runCaptcha = (
  page: Page,
  options: {
    pid: string;
    mode?: string;
    broken?: MockedVendor;
    identity?: string;
    scene?: string;
    /** The verify() request's `locale`; without it the page's `<html lang="en">` decides. */
    locale?: string;
  },
): Promise<CaptchaOutcome> =>
  page.evaluate(
    ({ pid, mode, scripts, identity, scene, locale }) => {
      const w = window as unknown as Record<string, unknown>;
      w.__vendorMode = mode;
      w.__vendorConfig = undefined;
      const api = w.EduPassCaptcha as {
        createCaptcha(o: object): { start(r: object, c: object): void };
      };
      const captcha = api.createCaptcha({ pid, platformHost: location.origin, scripts, scriptAttempts: 2 });
      return new Promise<CaptchaOutcome>((done) => {
        const finish = (outcome: CaptchaOutcome) => {
          const at = performance.now();
          const check = () => {
            if (document.querySelector('[data-edupass-captcha="mask"]')) return setTimeout(check, 20);
            done({ ...outcome, maskGoneAfter: Math.round(performance.now() - at) });
          };
          check();
        };
        captcha.start(locale === null ? { identity, scene } : { identity, scene, locale }, {
          onSuccess: (r: { ticket: string; appid: string; rule: string }) => finish({ kind: 'success', ...r }),
          onFail: (e: { name: string; message: string; serverCode?: string }) =>
            finish({
              kind: 'fail',
              name: e.name,
              message: e.message,
              ...(e.serverCode ? { serverCode: e.serverCode } : {}),
            }),
          onClose: () => finish({ kind: 'close' }),
        });
      });
    },
    {
      pid: options.pid,
      mode: options.mode ?? 'pass',
      scripts: scriptsFor(options.broken),
      identity: options.identity ?? '13600000000',
      scene: options.scene ?? 'login',
      locale: options.locale ?? null,
    },
  );

/** One option of the configuration the vendor's stand-in was last started with (functions and elements do not cross). */
export const vendorOption = (page: Page, name: string): Promise<unknown> =>
  page.evaluate((key) => {
    const config = (window as unknown as { __vendorConfig?: Record<string, unknown> }).__vendorConfig;
    return config?.[key];
  }, name);

/**
 * What a product's sign-in through EduPass's screens asks of the server, as the browser stories watch
 * it: the web client's calls of EduPass's API, and the moment the sign-in screen has read the product
 * it signs in for (kept with the return, so a sign-in made next can name the product's interaction).
 */
import type { Page } from 'playwright-core';

/** Every call the web client makes of the API at `origin` from now on, as `METHOD /path` (pages and files left out). */
export const recordApiCalls = (page: Page, origin: string): string[] => {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const api = request.resourceType() === 'fetch' || request.resourceType() === 'xhr';
    if (api && url.origin === origin) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
};

/** Until the sign-in screen's read of the product is kept with the return (a first-party application's). */
export const firstPartyReadKept = (page: Page) =>
  page.waitForFunction(() => sessionStorage.getItem('edupass.return')?.includes('"firstParty"'));

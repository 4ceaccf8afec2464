/**
 * The browser's side of a redirect flow, by plain HTTP: a cookie jar (names only; every cookie goes
 * to the one server under test) and redirects followed one hop at a time, so a test can stop where
 * the flow leaves the server (the web client's screen, an application's callback).
 */
import { hiddenFields, unescapeHtml } from './html-form.ts';

export interface Hop {
  status: number;
  url: string;
  location: string | undefined;
  body: string;
}

/** A page whose script posts its one form when loaded (`document.forms[0].submit()`): where, and what. */
const selfSubmittingForm = (html: string, base: string) => {
  if (!html.includes('document.forms[0].submit()')) return undefined;
  const action = /<form method="post" action="([^"]*)"/i.exec(html)?.[1];
  if (action === undefined) return undefined;
  return { action: new URL(unescapeHtml(action), base).href, fields: hiddenFields(html) };
};

export const cookieBrowser = () => {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
      if (value === '' || expired) jar.delete(name);
      else jar.set(name, value);
    }
  };
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const request = async (url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Hop> => {
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        accept: 'text/html',
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    remember(response);
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      url,
      location: location === undefined ? undefined : new URL(location, url).href,
      body: await response.text(),
    };
  };

  /** Follows redirects from `url` until one leaves for a URL that `stop` accepts; answers that URL. */
  const follow = async (url: string, stop: (next: string) => boolean, limit = 10): Promise<string> => {
    let next = url;
    for (let hop = 0; hop < limit; hop++) {
      let answer = await request(next);
      const form = answer.location === undefined ? selfSubmittingForm(answer.body, answer.url) : undefined;
      // The page a browser's script submits at once (an OpenID provider's form_post step): submitted.
      if (form) answer = await request(form.action, { form: form.fields });
      if (answer.location === undefined) {
        throw new Error(`${answer.url} answered ${answer.status} without a redirect: ${answer.body.slice(0, 300)}`);
      }
      if (stop(answer.location)) return answer.location;
      next = answer.location;
    }
    throw new Error(`more than ${limit} redirects from ${url}`);
  };

  return { request, follow, cookies: jar, cookieHeader };
};

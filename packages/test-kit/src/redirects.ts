/** A browser's view of a redirect answer in tests driving sign-in round trips with fetch. */
import { expect } from 'vitest';

/** Where a 302 sends the browser (the test fails on anything but a 302). */
export const redirectTarget = (response: Response) => {
  expect(response.status, `redirect expected from ${response.url}`).toBe(302);
  return response.headers.get('location') ?? '';
};

/** `name=value` of the cookie the answer sets, as the browser sends it back. */
export const cookieSet = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${name}=`))
    ?.split(';')[0];

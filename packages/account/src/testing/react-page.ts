/** Browser-test entry: the SDK plus a React tree that shows the session, for browser.test.ts. */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { AccountClient } from '../client.ts';
import { AuthProvider, useSession } from '../react.ts';

export * from '../index.ts';

const Status = () => {
  const { status, user } = useSession();
  return createElement('output', { id: 'session' }, `${status}:${user?.id ?? '-'}`);
};

/** Renders the session of `client` into the page. */
export const mount = (client: AccountClient): void => {
  const host = document.createElement('div');
  document.body.append(host);
  createRoot(host).render(createElement(AuthProvider, { client }, createElement(Status)));
};

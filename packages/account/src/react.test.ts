import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { init } from './auth.ts';
import { createAccountClient } from './client.ts';
import { AuthProvider, useSession } from './react.ts';

const config = { pid: 'edupass', appid: 'a', product_code: 'edupass', platform: 'web', auth_version: 1 };

const Status = () => {
  const session = useSession();
  return createElement('span', null, `${session.status}:${session.user?.nickname ?? '-'}`);
};

describe('React bindings', () => {
  it('AuthProvider hands its client to useSession', () => {
    const client = createAccountClient(config);
    client.session.update({ status: 'signed-in', user: { nickname: 'Ada' } as never });
    expect(renderToString(createElement(AuthProvider, { client }, createElement(Status)))).toBe(
      '<span>signed-in:Ada</span>',
    );
  });

  it('falls back to the client of the last init', () => {
    init(config);
    expect(renderToString(createElement(AuthProvider, null, createElement(Status)))).toBe('<span>signed-out:-</span>');
    expect(renderToString(createElement(Status))).toBe('<span>signed-out:-</span>');
  });
});

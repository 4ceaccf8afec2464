/** QQ answers in three dialects; each reads into the same object. */
import { describe, expect, it } from 'vitest';
import { parseQqAnswer } from './qq.ts';

describe('parseQqAnswer', () => {
  it('reads form-encoded token answers', () => {
    expect(parseQqAnswer('access_token=FE04ABC&expires_in=7776000&refresh_token=88E4DEF')).toEqual({
      access_token: 'FE04ABC',
      expires_in: '7776000',
      refresh_token: '88E4DEF',
    });
  });

  it('reads JSONP answers and errors, spaces and trailing newline included', () => {
    expect(parseQqAnswer('callback( {"client_id":"101","openid":"ABC"} );\n')).toEqual({
      client_id: '101',
      openid: 'ABC',
    });
    expect(parseQqAnswer('callback({"error":100016,"error_description":"access token check failed"});')).toEqual({
      error: 100016,
      error_description: 'access token check failed',
    });
  });

  it('reads JSON answers (fmt=json, get_user_info)', () => {
    expect(parseQqAnswer('{"ret":0,"msg":"","nickname":"小明"}')).toEqual({ ret: 0, msg: '', nickname: '小明' });
  });

  it('refuses anything else', () => {
    expect(parseQqAnswer('<html>502</html>')).toBeUndefined();
    expect(parseQqAnswer('callback( not json );')).toBeUndefined();
    expect(parseQqAnswer('')).toBeUndefined();
  });
});

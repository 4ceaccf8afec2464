import { describe, expect, it } from 'vitest';
import { parseGeetestParams, parseRule, parseSlideChallenge, parseTicket } from './parse.ts';

describe('answer parsing', () => {
  it('reads a rule bare or under data, upper-casing the rule', () => {
    expect(parseRule({ rule: 'default', appid: '', ticket: 't' })).toEqual({ rule: 'DEFAULT', appid: '', ticket: 't' });
    expect(parseRule({ data: { rule: 'GEETEST', appid: 'g' } })).toEqual({ rule: 'GEETEST', appid: 'g', ticket: '' });
    expect(parseRule({ appid: 'x' })).toBeUndefined();
    expect(parseRule('DEFAULT')).toBeUndefined();
  });

  it('reads a ticket, and the appid when there is one', () => {
    expect(parseTicket({ data: { ticket: 'k', appid: 'ali' } })).toEqual({ ticket: 'k', appid: 'ali' });
    expect(parseTicket({ ticket: 'k' })).toEqual({ ticket: 'k' });
    expect(parseTicket({ ticket: '' })).toBeUndefined();
    expect(parseTicket(null)).toBeUndefined();
  });

  it('reads Geetest parameters with success as 0 or 1', () => {
    expect(parseGeetestParams({ gt: 'g', challenge: 'c', success: 1, new_captcha: true })).toEqual({
      gt: 'g',
      challenge: 'c',
      success: 1,
      new_captcha: true,
    });
    expect(parseGeetestParams({ gt: 'g', challenge: 'c', success: 0 })?.success).toBe(0);
    expect(parseGeetestParams({ gt: 'g' })).toBeUndefined();
  });

  it('refuses a slide challenge with a missing or non-numeric field', () => {
    const good = {
      id: 'i',
      background: 'data:image/png;base64,AA',
      piece: 'data:image/png;base64,AA',
      width: 300,
      height: 150,
      pieceY: 40,
      pieceWidth: 52,
      pieceHeight: 52,
      expiresIn: 120,
    };
    expect(parseSlideChallenge(good)).toEqual(good);
    expect(parseSlideChallenge({ ...good, pieceY: '40' })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { zhDetail } from './server-details.ts';

describe('the server’s details in Chinese', () => {
  it('fills what the sentence names into the Chinese, and leaves no English words of the sentence', () => {
    const said = zhDetail('NETEASE cannot be chosen until its keys are set; missing: captchaId (NETEASE_CAPTCHA_ID).');
    expect(said).toBe('NETEASE 的密钥尚未设置，暂不能选用；缺少：captchaId (NETEASE_CAPTCHA_ID)。');
    for (const english of [
      'url must not point at a loopback or private address.',
      'Unknown event user.renamed; one of user.created, user.updated.',
      'Redirect URI must be an http(s) URL without a fragment.',
      'GEETEST apiServer must be an http or https URL, e.g. https://gcaptcha4.geetest.com.',
      'from must be before to, at most 366 days apart.',
      'Field "name" is too long (at most 64).',
    ]) {
      const chinese = zhDetail(english);
      expect(chinese, english).toBeDefined();
      expect(chinese, english).not.toMatch(/\b(must|cannot|one of|before|too long)\b/);
    }
  });

  it('knows nothing it was not told: an unknown sentence stays undefined', () => {
    expect(zhDetail('Something new the server says.')).toBeUndefined();
  });
});

/**
 * The words that carry a code, by SMS (the dev outbox keeps the same text) and by e-mail: they name
 * the site (SITE_NAME) and say in plain words what the code is for, Chinese first, then English.
 * The internal scene id never appears in them.
 */

/** What a code is for, in both languages, by scene; `{site}` is the site's name. */
const PURPOSES: Record<string, [zh: string, en: string]> = {
  email_register: ['注册{site}账号', 'sign up for {site}'],
  email_reset: ['重置密码', 'reset your password'],
  email_login: ['登录{site}', 'sign in to {site}'],
  email_bind: ['绑定到你的账号', 'add this address to your account'],
  register: ['注册{site}账号', 'sign up for {site}'],
  login: ['登录{site}', 'sign in to {site}'],
  silence: ['登录{site}', 'sign in to {site}'],
  reset: ['重置密码', 'reset your password'],
  password_update: ['修改密码', 'change your password'],
  bind: ['绑定到你的账号', 'add this phone to your account'],
  change: ['更换绑定的手机号', 'change the phone number of your account'],
  oauth: ['绑定微信或 QQ 账号', 'link your WeChat or QQ account'],
  common: ['确认是你本人', 'confirm it is you'],
  step_up: ['确认是你本人在修改账号', 'confirm it is you changing your account'],
};

/** What a code sent for `scene` is for, in Chinese and in English, naming `site` where it says the site. */
export const codePurpose = (site: string, scene: string): [zh: string, en: string] => {
  const [zh, en] = PURPOSES[scene] ?? ['确认是你本人', 'confirm it is you'];
  return [zh.replaceAll('{site}', site), en.replaceAll('{site}', site)];
};

/** The SMS (and voice, and dev outbox) text of a code. */
export const codeSms = (site: string, scene: string, code: string, minutes: number): string => {
  const [zh, en] = codePurpose(site, scene);
  return `【${site}】验证码 ${code}，用于${zh}，${minutes} 分钟内有效，请勿告诉他人。${site}: your code is ${code}, to ${en}; it expires in ${minutes} minutes. Never share it.`;
};

export interface CodeEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const codeEmail = (site: string, scene: string, code: string, minutes: number): CodeEmail => {
  const [zh, en] = codePurpose(site, scene);
  const subject = `${site} 验证码 ${code} · Your ${site} code`;
  const text = [
    `你的验证码是 ${code}，用于${zh}，${minutes} 分钟内有效。`,
    '如果这不是你本人的操作，请忽略这封邮件；请勿把验证码告诉任何人。',
    '',
    `Your code is ${code}. Use it to ${en} within ${minutes} minutes.`,
    'If you did not ask for it, ignore this e-mail, and never share the code with anyone.',
    '',
    `— ${site}`,
  ].join('\n');
  const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#222;max-width:32rem;margin:0 auto;padding:1rem">
<p>你的验证码，用于${escapeHtml(zh)}：</p>
<p style="font-size:2rem;letter-spacing:.3rem;font-weight:bold" lang="en">${escapeHtml(code)}</p>
<p>${minutes} 分钟内有效。如果这不是你本人的操作，请忽略这封邮件；请勿把验证码告诉任何人。</p>
<hr style="border:none;border-top:1px solid #ddd">
<p lang="en">Your code to ${escapeHtml(en)} is <strong>${escapeHtml(code)}</strong>. It expires in ${minutes} minutes.
If you did not ask for it, ignore this e-mail, and never share the code with anyone.</p>
<p style="color:#888">— ${escapeHtml(site)}</p></body></html>`;
  return { subject, text, html };
};

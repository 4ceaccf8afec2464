/** The e-mail that carries a code: Chinese first, then English, as text and as HTML. */

const PURPOSES: Record<string, [zh: string, en: string]> = {
  email_register: ['注册 EduPass 账号', 'sign up for EduPass'],
  email_reset: ['重置密码', 'reset your password'],
  email_login: ['登录 EduPass', 'sign in to EduPass'],
  email_bind: ['绑定到你的账号', 'add this address to your account'],
  register: ['注册 EduPass 账号', 'sign up for EduPass'],
  login: ['登录 EduPass', 'sign in to EduPass'],
  silence: ['登录 EduPass', 'sign in to EduPass'],
  reset: ['重置密码', 'reset your password'],
  password_update: ['修改密码', 'change your password'],
  bind: ['绑定到你的账号', 'bind it to your account'],
  change: ['更换绑定', 'change what is bound to your account'],
  oauth: ['绑定第三方账号', 'link a third-party account'],
  common: ['验证身份', 'confirm it is you'],
  step_up: ['确认是你本人在修改账号', 'confirm it is you changing your account'],
};

export interface CodeEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const codeEmail = (scene: string, code: string, minutes: number): CodeEmail => {
  const [zh, en] = PURPOSES[scene] ?? PURPOSES.common ?? ['验证身份', 'confirm it is you'];
  const subject = `EduPass 验证码 ${code} · Your EduPass code`;
  const text = [
    `你的验证码是 ${code}，用于${zh}，${minutes} 分钟内有效。`,
    '如果这不是你本人的操作，请忽略这封邮件；请勿把验证码告诉任何人。',
    '',
    `Your code is ${code}. Use it to ${en} within ${minutes} minutes.`,
    'If you did not ask for it, ignore this e-mail, and never share the code with anyone.',
    '',
    '— EduPass',
  ].join('\n');
  const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#222;max-width:32rem;margin:0 auto;padding:1rem">
<p>你的验证码是，用于${escapeHtml(zh)}：</p>
<p style="font-size:2rem;letter-spacing:.3rem;font-weight:bold" lang="en">${escapeHtml(code)}</p>
<p>${minutes} 分钟内有效。如果这不是你本人的操作，请忽略这封邮件；请勿把验证码告诉任何人。</p>
<hr style="border:none;border-top:1px solid #ddd">
<p lang="en">Your code to ${escapeHtml(en)} is <strong>${escapeHtml(code)}</strong>. It expires in ${minutes} minutes.
If you did not ask for it, ignore this e-mail, and never share the code with anyone.</p>
<p style="color:#888">— EduPass</p></body></html>`;
  return { subject, text, html };
};

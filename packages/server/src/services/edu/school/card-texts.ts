/** The login card's words, in both languages. */
export const cardTexts = {
  'zh-CN': {
    title: '学生登录卡',
    name: '姓名',
    className: '班级',
    username: '用户名',
    password: '初始密码',
    qr: '登录二维码',
    site: '登录网址',
    hint: '用平板扫描二维码即可登录；或打开登录网址，输入用户名和密码。请妥善保管本卡。',
    changed: '（已自行修改）',
    endsWithPassword: '学生设置自己的密码后，二维码即失效。',
    keepsAfterPassword: '学生设置自己的密码后二维码仍有效；卡丢失可在账号中心停用。',
    guardianCode: '家长关联码',
    guardianHint: '家长登录后在“家长中心”输入关联码即可关联孩子（30 天内有效，只能用一次）。',
    /** What stands between two sentences: nothing after a Chinese full stop. */
    sentenceGap: '',
  },
  en: {
    title: 'Pupil login cards',
    name: 'Name',
    className: 'Class',
    username: 'Username',
    password: 'Password',
    qr: 'Sign-in QR code',
    site: 'Sign in at',
    hint: 'Show the QR code to the tablet camera to sign in, or open the address above and type the username and password. Keep this card safe.',
    changed: '(changed by the pupil)',
    endsWithPassword: 'The QR code stops working once the pupil chooses their own password.',
    keepsAfterPassword:
      'The QR code still works after the pupil chooses a password; a lost card can be stopped in the account centre.',
    guardianCode: 'Guardian link code',
    guardianHint: 'A parent signs in and types the guardian link code in the guardian area (works once, for 30 days).',
    sentenceGap: ' ',
  },
} as const;

export type CardLanguage = keyof typeof cardTexts;

export const isCardLanguage = (lang: string): lang is CardLanguage => Object.hasOwn(cardTexts, lang);

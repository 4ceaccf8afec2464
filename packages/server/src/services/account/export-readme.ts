/**
 * The README of a person's copy of their data, in their language: what each file of the zip is, in
 * plain words (children read it too).
 */
import type { AgreementLanguage } from '@edupass/protocol';
import type { ExportArea } from '../../store/account/export-map.ts';

type Words = Record<AgreementLanguage, string>;

/** What each area's file holds. */
export const AREA_WORDS: Record<ExportArea, Words> = {
  profile: {
    'zh-CN': '你的资料：昵称、头像地址、手机号、邮箱、生日、年级等，以及是否设置了密码（不含密码本身）。',
    en: 'Your profile: nickname, picture address, phone, e-mail, birthday, grade and more, and whether a password is set (never the password).',
  },
  'sign-in-methods': {
    'zh-CN':
      '你登录的方式：绑定的第三方账号、通行密钥、身份验证器、恢复码的使用情况、学校登录、登录卡。不含任何密钥或密码。',
    en: 'How you sign in: linked accounts, passkeys, authenticator app, which recovery codes are used, school sign-in, sign-in cards. No secret or password is in it.',
  },
  sessions: {
    'zh-CN': '你登录过的设备和时间：方式、网络地址、浏览器、开始和结束时间（表格，可用 Excel 打开）。',
    en: 'The devices you signed in on: how, the network address, the browser, when it started and ended (a table that opens in Excel).',
  },
  agreements: {
    'zh-CN': '你同意过的协议和同意的时间。',
    en: 'The agreements you accepted, and when.',
  },
  consents: {
    'zh-CN': '监护人为你做的同意（或你作为监护人为孩子做的同意）。',
    en: 'The consents a guardian gave for you (or you gave for your child, as a guardian).',
  },
  applications: {
    'zh-CN': '你允许使用你账号的应用，以及允许它们看到的内容。',
    en: 'The applications you allowed to use your account, and what they may see.',
  },
  classes: {
    'zh-CN': '你所在的学校和班级（只有你自己的成员信息，没有同学名单）。',
    en: 'Your schools and classes (only your own membership, never the class list).',
  },
  family: {
    'zh-CN': '你和监护人（或孩子）的关联。',
    en: 'Your links with your guardians (or your children).',
  },
  'security-events': {
    'zh-CN': '和你账号安全有关的事：登录失败、验证、修改密码，以及管理员对账号做过的操作。',
    en: 'Security events on your account: failed sign-ins, checks, password changes, and what operators did to the account.',
  },
  'access-log': {
    'zh-CN': '谁看过你的信息：老师或管理员查看的时间、看了什么、为什么（表格）。',
    en: 'Who read your record: when a teacher or operator looked, what they saw and why (a table).',
  },
  exports: {
    'zh-CN': '你以前要过的数据副本。',
    en: 'The copies of your data asked for before.',
  },
  'usage-events': {
    'zh-CN': '你使用各个产品时记录下来的事件（表格）。',
    en: 'What was recorded while you used the products (a table).',
  },
};

const HEAD: Words = {
  'zh-CN': '# 你在 EduPass 的数据副本\n\n这是 EduPass 保存的关于你的全部信息，生成于 {at}。每个文件的内容如下：\n',
  en: '# Your copy of your data at EduPass\n\nThis is everything EduPass keeps about you, made on {at}. What each file holds:\n',
};

const AVATAR: Words = {
  'zh-CN': '你的头像图片。',
  en: 'Your profile picture.',
};

const FOOT: Words = {
  'zh-CN':
    '\n.json 文件可以用任何文本编辑器打开；.csv 文件是表格，可以用 Excel 或 WPS 打开。时间是从 1970 年开始的毫秒数（UTC）。',
  en: '\n.json files open in any text editor; .csv files are tables that open in Excel or WPS. Times are milliseconds since 1970 (UTC).',
};

/** The README for the files the zip holds, in `lang`. */
export const readme = (lang: AgreementLanguage, files: { name: string; area?: ExportArea }[], at: number) => {
  const lines = files.map(({ name, area }) => `- ${name}: ${area ? AREA_WORDS[area][lang] : AVATAR[lang]}`);
  return `${HEAD[lang].replace('{at}', new Date(at).toISOString())}\n${lines.join('\n')}\n${FOOT[lang]}\n`;
};

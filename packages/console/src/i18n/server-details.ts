/**
 * The server writes the detail of an invalid request (E_1) in English, for API users and logs. The console
 * says the ones an operator's own input can cause in Chinese: each pattern below is one of the server's
 * sentences (services/captcha, webhooks, identity, usage, admin), its captures filled into the Chinese.
 * A detail no pattern knows is shown as the server wrote it, after the catalogue sentence.
 */
import { fill } from '@edupass/ui-kit/error-text.ts';

const ZH_DETAILS: [RegExp, string][] = [
  [
    /^Staff passwords need at least (\d+) characters and (\d) of the 4 kinds: lower-case letters, capitals, digits, symbols\.$/,
    '工作人员密码至少需要 {1} 个字符，并包含小写字母、大写字母、数字、符号这 4 类中的 {2} 类。',
  ],
  [
    /^Choose a password you have not used recently: not one of your last (\d+)\.$/,
    '请换一个最近没有用过的密码：不能与最近 {1} 个密码相同。',
  ],
  [/^This needs the (.+) duty; yours: (.+)\.$/, '此操作需要“{1}”职责；你的职责：{2}。'],
  [/^(\S+) cannot be chosen until its keys are set; missing: (.+)\.$/, '{1} 的密钥尚未设置，暂不能选用；缺少：{2}。'],
  [/^The provider must be one of (.+)\.$/, '服务商必须是以下之一：{1}。'],
  [/^The policy must be never, always or risk\.$/, '策略必须是“从不”“总是”或“按风险”。'],
  [/^pid and scene are letters, digits, \. _ - or \* \(any\)\.$/, '产品与场景只能包含字母、数字、. _ - 或 *（任意）。'],
  [/^vendor must be one of (.+)\.$/, '服务商必须是以下之一：{1}。'],
  [/^(\S+) has no field "(.+)"; its fields are (.+)\.$/, '{1} 没有字段“{2}”；可用字段：{3}。'],
  [/^(\S+) (\S+) must be a string\.$/, '{1} 的 {2} 必须是文本。'],
  [
    /^(\S+) (\S+) must be 1 to (\d+) characters \(to remove it, clear it instead\)\.$/,
    '{1} 的 {2} 须为 1 到 {3} 个字符（要删除它，请使用“清除”）。',
  ],
  [/^(\S+) (\S+) must not contain control characters\.$/, '{1} 的 {2} 不能包含控制字符。'],
  [/^(\S+) (\S+) must be an http or https URL, e\.g\. (.+)\.$/, '{1} 的 {2} 必须是 http 或 https 地址，例如 {3}。'],
  [
    /^(\S+) (\S+) must be on (.+) \(the vendor's documented hosts\); to use another host, mark it as a custom endpoint\.$/,
    '{1} 的 {2} 必须位于 {3}（服务商文档中的地址）；要使用其他地址，请将其标记为自定义地址。',
  ],
  [
    /^Changing (\S+) (.+) sends its keys to another host: enter (.+) again in the same request\.$/,
    '修改 {1} 的 {2} 会把密钥发往另一个地址：请在同一次保存中重新填写 {3}。',
  ],
  [/^Name at least one field, or leave fields out to clear them all\.$/, '请至少选择一个字段，或不选字段以全部清除。'],
  [/^url must be an absolute http or https URL\.$/, '地址必须是完整的 http 或 https 地址。'],
  [/^url must be http or https\.$/, '地址必须使用 http 或 https。'],
  [/^url must be at most (\d+) characters\.$/, '地址最长 {1} 个字符。'],
  [/^url must not carry a user name or password\.$/, '地址中不能包含用户名或密码。'],
  [/^url must not point at a loopback or private address\.$/, '地址不能指向本机或内网地址。'],
  [/^Unknown event (\S+); one of (.+)\.$/, '未知事件 {1}；可选：{2}。'],
  [/^events must name at least one event\.$/, '请至少选择一个事件。'],
  [/^(.+) must be an absolute URL\.$/, '{1} 必须是完整的地址。'],
  [/^(.+) must be an http\(s\) URL without a fragment\.$/, '{1} 必须是不含 # 片段的 http(s) 地址。'],
  [/^The name must not be empty\.$/, '名称不能为空。'],
  [/^At least one redirect URI is needed\.$/, '至少需要一个回调地址。'],
  [/^from must be before to, at most 366 days apart\.$/, '开始时间必须早于结束时间，且相隔不超过 366 天。'],
  [/^bucket must be hour or day\.$/, '时间粒度必须是小时或天。'],
  [/^Operators cannot block themselves\.$/, '运营人员不能封禁自己。'],
  [
    /^code must be lower-case letters, digits, - or _, starting with a letter\.$/,
    '代码只能包含小写字母、数字、- 或 _，并以字母开头。',
  ],
  [/^version must be a positive whole number\.$/, '版本必须是正整数。'],
  [/^An authenticator app is already set up; remove it first\.$/, '已设置身份验证器应用，请先将其移除。'],
  [
    /^Another rotation of the signing keys ran at the same moment\. List the keys, then try again\.$/,
    '另一次签名密钥轮换正在同时进行。请刷新密钥列表后重试。',
  ],
  [/^Field "(.+)" is too long \(at most (\d+)\)\.$/, '字段“{1}”过长（最多 {2} 个字符）。'],
  [/^Field "(.+)" must not contain control characters\.$/, '字段“{1}”不能包含控制字符。'],
  [/^Missing field "(.+)"\.$/, '缺少字段“{1}”。'],
];

/** The server's detail in Chinese, or undefined when no pattern knows it. */
export const zhDetail = (detail: string): string | undefined => {
  for (const [pattern, template] of ZH_DETAILS) {
    const match = pattern.exec(detail);
    if (match) return fill(template, Object.fromEntries(match.slice(1).map((value, i) => [String(i + 1), value])));
  }
  return undefined;
};
